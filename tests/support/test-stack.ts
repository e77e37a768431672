import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCoreApi } from '../../apps/core-api/core-api.container';
import type { ComposedApp } from '../../apps/shared/compose';
import { loadConfig, type AppConfig } from '../../apps/shared/config';
import { createInfrastructure, type Infrastructure } from '../../apps/shared/infrastructure';
import { listen, type Listening } from '../../apps/shared/serve';
import { createLogger } from '../../adapters/logging/logger';
import { TestClient } from './http-client';
import { openTestDatabase, type DatabaseKind } from './test-database';

/** Cheap argon2 for tests; the production parameters are tested in the crypto unit tests. */
export const FAST_HASHING = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export function testConfig(env: Record<string, string | undefined> = {}): AppConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-'));
  return loadConfig({
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    AI_SERVICE_TOKEN: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'silent',
    ...env,
  });
}

export interface TestStack {
  config: AppConfig;
  infra: Infrastructure;
  core: ComposedApp;
  listening: Listening;
  client: TestClient;
  close(): Promise<void>;
}

/** The core API composed on a fresh database, listening on a free port. */
export async function startCoreApi(options: { database?: DatabaseKind; env?: Record<string, string | undefined> } = {}): Promise<TestStack> {
  const config = testConfig(options.env);
  const database = await openTestDatabase(options.database);
  const infra = await createInfrastructure(config, { database, logger: createLogger('silent') });
  const core = await createCoreApi(infra, { passwordHashing: FAST_HASHING });
  const listening = await listen(core, '127.0.0.1', 0);
  return {
    config,
    infra,
    core,
    listening,
    client: new TestClient(listening.url),
    async close() {
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        listening.server.closeAllConnections();
      });
      await core.stop();
      await infra.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** Registers a fresh user and returns its session. */
export async function registerUser(client: TestClient, overrides: Partial<{ email: string; password: string; displayName: string }> = {}) {
  const body = {
    email: `user${++counter}-${randomBytes(3).toString('hex')}@example.com`,
    password: 'correct horse battery',
    displayName: 'Test User',
    ...overrides,
  };
  const res = await client.post('/api/auth/register', body);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { ...res.body, password: body.password, email: body.email } as {
    user: { id: string; email: string; role: string };
    access_token: string;
    refresh_token: string;
    password: string;
    email: string;
  };
}
