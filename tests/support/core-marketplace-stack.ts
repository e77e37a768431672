import { rmSync } from 'node:fs';
import { createLogger } from '../../adapters/logging/logger';
import { coreApiModules } from '../../apps/core-api/core-api.container';
import { marketplaceModule as coreMarketplaceModule } from '../../apps/core-api/modules/marketplace.module';
import { createMarketplace } from '../../apps/marketplace/marketplace.container';
import { composeApp, type ComposedApp } from '../../apps/shared/compose';
import type { AppConfig } from '../../apps/shared/config';
import { createInfrastructure, type Infrastructure } from '../../apps/shared/infrastructure';
import { listen, type Listening } from '../../apps/shared/serve';
import type { Clock } from '../../core/shared/clock.port';
import { TestClient } from './http-client';
import { openTestDatabase, type DatabaseKind } from './test-database';
import { ADMIN_EMAIL, FAST_HASHING, registerUser, stopListening, testConfig } from './test-stack';

/** Real time moved on by hand: the 5-minute cache and the 72-hour grace pass in a moment. */
export class MovableClock implements Clock {
  offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export interface CoreInstance {
  app: ComposedApp;
  infra: Infrastructure;
  listening: Listening;
  client: TestClient;
  close(): Promise<void>;
}

/** A core API on `infra`, its marketplace jobs left to the test (no timers), calls cut at `timeoutMs`. */
export async function startCore(infra: Infrastructure, options: { timeoutMs?: number } = {}): Promise<CoreInstance> {
  const modules = coreApiModules(infra, { passwordHashing: FAST_HASHING }).map((m) =>
    m.name === 'marketplace' ? coreMarketplaceModule({ background: false, timeoutMs: options.timeoutMs ?? 2000 }) : m,
  );
  const app = await composeApp('core-api', infra, modules);
  const listening = await listen(app, '127.0.0.1', 0);
  return {
    app,
    infra,
    listening,
    client: new TestClient(listening.url),
    async close() {
      await stopListening(listening);
      await app.stop();
    },
  };
}

export interface MarketplaceStack {
  config: AppConfig;
  infra: Infrastructure;
  core: CoreInstance;
  client: TestClient;
  /** The real marketplace service, when started with `service: true`. */
  service?: { app: ComposedApp; listening: Listening; port: number };
  adminToken(): Promise<string>;
  /** Stops the marketplace service's listener (connection refused from then on). */
  stopService(): Promise<void>;
  /** Starts it again on the same port. */
  restartService(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One database and infrastructure (and clock) for the core API and, with `service`, the marketplace service
 * itself, as `npm start` runs them; MARKETPLACE_URL is the service's address, or `marketplaceUrl`.
 */
export async function startMarketplaceStack(options: { database?: DatabaseKind; service?: boolean; marketplaceUrl?: string; clock?: Clock; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<MarketplaceStack> {
  const config = testConfig({ ADMIN_EMAILS: ADMIN_EMAIL, ...options.env });
  const infra = await createInfrastructure(config, { database: await openTestDatabase(options.database), logger: createLogger('silent') });
  if (options.clock) infra.clock = options.clock;
  let service: MarketplaceStack['service'];
  if (options.service) {
    const app = await createMarketplace(infra);
    const listening = await listen(app, '127.0.0.1', 0);
    service = { app, listening, port: Number(new URL(listening.url).port) };
    config.marketplaceUrl = listening.url;
  } else {
    config.marketplaceUrl = options.marketplaceUrl || undefined;
  }
  const core = await startCore(infra, { timeoutMs: options.timeoutMs });
  let admin: Promise<string> | undefined;
  let serviceUp = true;
  return {
    config,
    infra,
    core,
    client: core.client,
    service,
    adminToken() {
      admin ??= registerUser(core.client, { email: ADMIN_EMAIL }).then((s) => s.access_token);
      return admin;
    },
    async stopService() {
      if (!service || !serviceUp) return;
      await stopListening(service.listening);
      serviceUp = false;
    },
    async restartService() {
      if (!service || serviceUp) return;
      service.listening = await listen(service.app, '127.0.0.1', service.port);
      serviceUp = true;
    },
    async close() {
      await core.close();
      if (service) {
        if (serviceUp) await stopListening(service.listening);
        await service.app.stop();
      }
      await infra.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
