import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TestClient } from './http-client';
import { freePort, spawnService, waitUntilUp, type Service } from './spawn-service';

/**
 * Core API processes that can be killed and started again on one PostgreSQL database and data folder of
 * their own (PGlite serves one process only), for the tests of what survives a SIGKILL. Webhooks and
 * workflow `http` steps may reach the test's receivers on 127.0.0.1.
 */
export class KillableCoreApi {
  private readonly dbName: string;
  private dataDir = '';
  private databaseUrl = '';
  private readonly services: Service[] = [];

  constructor(
    private readonly baseUrl: string,
    name: string,
  ) {
    this.dbName = `${name}_${randomBytes(5).toString('hex')}`;
  }

  /** Creates the database and the data folder (call in beforeAll). */
  async open(): Promise<void> {
    this.dataDir = mkdtempSync(join(tmpdir(), `platform-${this.dbName}-`));
    await this.admin((c) => c.query(`CREATE DATABASE "${this.dbName}"`));
    const url = new URL(this.baseUrl);
    url.pathname = `/${this.dbName}`;
    this.databaseUrl = url.toString();
  }

  /**
   * Starts one more core API process on the shared database and waits until it answers its health;
   * `env` adds to or overrides its environment (providers, Redis, lease settings).
   */
  async start(env: Record<string, string> = {}): Promise<{ service: Service; client: TestClient }> {
    const port = await freePort();
    const service = spawnService('apps/core-api/main.ts', {
      DATA_DIR: this.dataDir,
      PORT: String(port),
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: '',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32',
      LOG_LEVEL: 'warn',
      ...env,
    });
    this.services.push(service);
    const client = new TestClient(`http://127.0.0.1:${port}`);
    await waitUntilUp(`${client.baseUrl}/api/health`, service);
    return { service, client };
  }

  /** Kills every process started, drops the database and removes the data folder (call in afterAll). */
  async close(): Promise<void> {
    for (const s of this.services) await s.stop('SIGKILL');
    await this.admin((c) => c.query(`DROP DATABASE IF EXISTS "${this.dbName}" WITH (FORCE)`));
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    const c = new Client({ connectionString: this.baseUrl });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }
}
