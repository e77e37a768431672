import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatform } from '../../apps/platform/platform';
import type { ComposedApp } from '../../apps/shared/compose';
import { loadConfig, type AppConfig } from '../../apps/shared/config';
import { createInfrastructure, type Infrastructure } from '../../apps/shared/infrastructure';
import { announce, listen, type Listening } from '../../apps/shared/serve';
import { createServer, type AddressInfo } from 'node:net';
import { createLogger } from '../../adapters/logging/logger';
import { TestClient } from './http-client';
import { openTestDatabase, type DatabaseKind } from './test-database';
import { startEmulator, type Emulator } from './emulator/emulator';

/** Cheap argon2 for tests; the production parameters are tested in the crypto unit tests. */
export const FAST_HASHING = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export function testConfig(env: Record<string, string | undefined> = {}): AppConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-'));
  return loadConfig({
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    AI_SERVICE_TOKEN: randomBytes(24).toString('hex'),
    MARKETPLACE_TOKEN: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'silent',
    // Every test client shares one address; the per-address limit has its own test.
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
}

export interface TestStack {
  /** Set when the stack runs the AI service separately (the core API reaches it over HTTP). */
  ai?: { app: ComposedApp; listening: Listening; client: TestClient };
  emulator?: Emulator;
  config: AppConfig;
  infra: Infrastructure;
  core: ComposedApp;
  listening: Listening;
  client: TestClient;
  /** The start log's announcement (JSON lines, as `npm start` prints them): the console's address, the setup link, the API reference. */
  startLog: string[];
  /** Puts a user on a plan (and a subscription status) through the admin endpoint (the stack's admin is ADMIN_EMAIL). */
  setPlan(userId: string, plan: 'free' | 'starter' | 'pro' | 'enterprise', status?: 'active' | 'trialing' | 'past_due' | 'canceled' | 'incomplete'): Promise<void>;
  close(): Promise<void>;
}

/** The admin of every test stack (ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'admin@platform.test';

export interface StackOptions {
  database?: DatabaseKind;
  env?: Record<string, string | undefined>;
  /**
   * `remote` (default when providers are on): the AI service runs as its own app and the core API
   * reaches it over HTTP; `in-process`: the core API runs the engine itself.
   */
  engine?: 'remote' | 'in-process';
  /** Start the provider emulator and point every provider at it (with platform keys). */
  providers?: boolean;
  /** With providers: the emulator's rerank endpoint as the knowledge reranker (RERANK_URL). */
  rerank?: boolean;
  /** A short access-token life (seconds), to test expiry and silent refresh. */
  accessTokenTtlSeconds?: number;
  /** The core API's port (default: a free one). */
  port?: number;
}

/** Platform keys the emulator accepts, set as PROVIDER_X_API_KEY when a stack runs with providers. */
export const PLATFORM_KEYS = {
  provider_a: 'sk-platform-a-0000',
  provider_b: 'sk-ant-platform-b-0000',
  provider_c: 'AIzaSyPlatformC0000',
  provider_d: 'hf_platform_d_0000',
} as const;

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The core API (and, with providers, the emulator and the AI service) on a fresh database, on free ports. */
export async function startCoreApi(options: StackOptions = {}): Promise<TestStack> {
  const emulator = options.providers ? await startEmulator() : undefined;
  const providerEnv: Record<string, string> = {};
  if (emulator) {
    for (const [id, url] of Object.entries(emulator.baseUrls) as [string, string][]) providerEnv[`${id.toUpperCase()}_BASE_URL`] = url;
    for (const [id, key] of Object.entries(PLATFORM_KEYS)) providerEnv[`${id.toUpperCase()}_API_KEY`] = key;
    if (options.rerank) Object.assign(providerEnv, { RERANK_URL: emulator.baseUrls.provider_a, RERANK_API_KEY: PLATFORM_KEYS.provider_a });
  }
  // A port known before the start, as PORT is in production: links the platform sends (mails) name where it listens.
  const port = options.port ?? (await freePort());
  const config = testConfig({ PROVIDER_TIMEOUT_MS: '5000', ADMIN_EMAILS: ADMIN_EMAIL, PORT: String(port), ...providerEnv, ...options.env });
  const database = await openTestDatabase(options.database);
  const infra = await createInfrastructure(config, { database, logger: createLogger('silent') });
  let ai: TestStack['ai'];
  if (emulator && (options.engine ?? 'remote') === 'remote') {
    // Both services composed as the apps' processes compose them: through createPlatform.
    const app = (await createPlatform({ config, infrastructure: infra, services: ['ai-service'] })).services['ai-service']!;
    const aiListening = await listen(app, '127.0.0.1', 0);
    config.aiServiceUrl = aiListening.url;
    ai = { app, listening: aiListening, client: new TestClient(aiListening.url) };
  }
  const platform = await createPlatform({ config, infrastructure: infra, passwordHashing: FAST_HASHING, accessTokenTtlSeconds: options.accessTokenTtlSeconds, console: true });
  const core = platform.services['core-api']!;
  const listening = await listen(core, '127.0.0.1', port);
  const startLog: string[] = [];
  announce([listening], config, createLogger('info', undefined, { write: (line: string) => void startLog.push(line) }));
  // The AI service runs the calls it cannot run itself (plugin, MCP, built-in tools) in the core API (CORE_API_URL).
  if (ai) config.coreApiUrl = listening.url;
  const client = new TestClient(listening.url);
  let adminToken: Promise<string> | undefined;
  return {
    config,
    infra,
    core,
    listening,
    ai,
    emulator,
    client,
    startLog,
    async setPlan(userId, plan, status) {
      adminToken ??= registerUser(client, { email: ADMIN_EMAIL }).then((s) => s.access_token);
      const res = await client.put(`/api/admin/users/${userId}/plan`, { plan, status }, { token: await adminToken });
      if (res.status !== 200) throw new Error(`set plan failed: ${res.status} ${res.text}`);
    },
    async close() {
      for (const l of [listening, ai?.listening]) if (l) await stopListening(l);
      await core.stop();
      await ai?.app.stop();
      await infra.close();
      await emulator?.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A registered user on a paid plan (platform keys apply) with an application, ready to chat. */
export async function paidUserWithApplication(stack: TestStack, plan: 'starter' | 'pro' | 'enterprise' = 'pro', appBody?: Record<string, unknown>) {
  const owner = await userWithApplication(stack.client, appBody);
  await stack.setPlan(owner.user.id, plan);
  return owner;
}

/** A registered user (Free plan) with an application. */
export async function userWithApplication(client: TestClient, appBody: Record<string, unknown> = { name: 'Chat App' }) {
  const user = await registerUser(client);
  const app = await client.post('/api/applications', appBody, { token: user.access_token });
  if (app.status !== 201) throw new Error(`create application failed: ${app.status} ${app.text}`);
  return { ...user, token: user.access_token, app: app.body as { id: string; slug: string; name: string } };
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

/** Another core API instance in all but process: its own infrastructure (Redis connection, cache, limiter), the stack's database. */
export interface SecondInstance {
  client: TestClient;
  close(): Promise<void>;
}

/** Stops a test's server at once: no new connections, open ones (kept-alive or streaming) cut. */
export function stopListening(listening: Pick<Listening, 'server'>): Promise<void> {
  return new Promise((resolve) => {
    listening.server.close(() => resolve());
    listening.server.closeAllConnections();
  });
}

/** Starts a second core API on the stack's database and configuration (closed before the stack). */
export async function startSecondCoreApi(stack: TestStack): Promise<SecondInstance> {
  const infra = await createInfrastructure(stack.config, { database: stack.infra.database, logger: createLogger('silent') });
  const platform = await createPlatform({ config: stack.config, infrastructure: infra, passwordHashing: FAST_HASHING, console: true });
  const listening = await listen(platform.services['core-api']!, '127.0.0.1', 0);
  return {
    client: new TestClient(listening.url),
    async close() {
      await stopListening(listening);
      await listening.app.stop();
      await infra.cache.close?.();
      infra.redis?.disconnect(); // the database is the stack's, closed with it
    },
  };
}
