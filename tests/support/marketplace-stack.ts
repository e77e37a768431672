import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createLogger } from '../../adapters/logging/logger';
import { signActingUser } from '../../adapters/shared/marketplace-acting-user';
import { createMarketplace } from '../../apps/marketplace/marketplace.container';
import type { ComposedApp } from '../../apps/shared/compose';
import type { AppConfig } from '../../apps/shared/config';
import { createInfrastructure, type Infrastructure } from '../../apps/shared/infrastructure';
import { listen, type Listening } from '../../apps/shared/serve';
import type { Clock } from '../../core/shared/clock.port';
import { docExample, zipOf } from './plugins/plugin-examples';
import { TestClient, type RequestOptions } from './http-client';
import { openTestDatabase, type DatabaseKind } from './test-database';
import { stopListening, testConfig } from './test-stack';

/** A user the marketplace acts for (the core API signs these headers with MARKETPLACE_TOKEN). */
export interface MarketUser {
  userId: string;
  role: 'admin' | 'developer' | 'user';
}

export const aMarketUser = (role: MarketUser['role'] = 'user'): MarketUser => ({ userId: randomUUID(), role });

/** Requests to the marketplace as the core API makes them: the service token, and the acting user when given. */
export class MarketplaceClient {
  constructor(
    readonly http: TestClient,
    private readonly token: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  headers(user?: MarketUser): Record<string, string> {
    return { Authorization: `Bearer ${this.token}`, ...(user ? signActingUser(this.token, user, this.clock()) : {}) };
  }
  private opts(user: MarketUser | undefined, extra: RequestOptions = {}): RequestOptions {
    return { ...extra, headers: { ...this.headers(user), ...extra.headers } };
  }
  get<T = any>(path: string, user?: MarketUser) {
    return this.http.get<T>(path, this.opts(user));
  }
  post<T = any>(path: string, body: unknown, user?: MarketUser) {
    return this.http.post<T>(path, body, this.opts(user));
  }
  put<T = any>(path: string, body: unknown, user?: MarketUser) {
    return this.http.put<T>(path, body, this.opts(user));
  }
  delete<T = any>(path: string, user?: MarketUser) {
    return this.http.delete<T>(path, this.opts(user));
  }
}

export interface MarketplaceStack {
  config: AppConfig;
  infra: Infrastructure;
  app: ComposedApp;
  listening: Listening;
  /** The service's base URL: MARKETPLACE_URL for a core API under test. */
  url: string;
  /** MARKETPLACE_TOKEN: give the core API under test the same. */
  token: string;
  client: MarketplaceClient;
  close(): Promise<void>;
}

export interface MarketplaceStackOptions {
  database?: DatabaseKind;
  env?: Record<string, string | undefined>;
  /** The platform version compatibility is checked against (default: package.json's). */
  platformVersion?: string;
  clock?: Clock;
}

/**
 * The marketplace service on a fresh database of its own, on a free port. A core API test points at it with
 * `startCoreApi({ env: { MARKETPLACE_URL: market.url, MARKETPLACE_TOKEN: market.token } })`.
 */
export async function startMarketplace(options: MarketplaceStackOptions = {}): Promise<MarketplaceStack> {
  const config = testConfig(options.env);
  const infra = await createInfrastructure(config, { database: await openTestDatabase(options.database), logger: createLogger('silent') });
  if (options.clock) infra.clock = options.clock;
  const app = await createMarketplace(infra, { platformVersion: options.platformVersion });
  const listening = await listen(app, '127.0.0.1', 0);
  const clock = options.clock;
  return {
    config,
    infra,
    app,
    listening,
    url: listening.url,
    token: config.marketplaceToken,
    client: new MarketplaceClient(new TestClient(listening.url), config.marketplaceToken, clock ? () => clock.now() : undefined),
    async close() {
      await stopListening(listening);
      await app.stop();
      await infra.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A plugin ZIP (manifest.json + index.js) as base64, for submissions and versions. */
export async function pluginPackage(manifest: Record<string, unknown>, source = 'definePlugin({});'): Promise<string> {
  return (await zipOf({ 'manifest.json': JSON.stringify({ main: 'index.js', ...manifest }), 'index.js': source })).toString('base64');
}

/** A submission body for a plugin named `name` at `version`, with its package. */
export async function pluginSubmission(name: string, version = '1.0.0', extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return {
    name,
    slug: name,
    version,
    description: `The ${name} plugin`,
    author: 'Ada',
    category: 'chat',
    package: await pluginPackage({ name, version, displayName: name.replace(/-/g, ' ') }),
    ...extra,
  };
}

/** Submits a plugin as `author` and approves it as `admin`; answers its id. */
export async function publishedPlugin(client: MarketplaceClient, author: MarketUser, admin: MarketUser, body: Record<string, unknown>): Promise<string> {
  const submitted = await client.post('/marketplace/submit/plugin', body, author);
  if (submitted.status !== 201) throw new Error(`submit failed: ${submitted.status} ${submitted.text}`);
  const approved = await client.post(`/marketplace/admin/plugins/${submitted.body.id}/approve`, {}, admin);
  if (approved.status !== 200) throw new Error(`approve failed: ${approved.status} ${approved.text}`);
  return submitted.body.id as string;
}

export { docExample };
