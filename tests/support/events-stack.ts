import { randomBytes } from 'node:crypto';
import { coreApiModules } from '../../apps/core-api/core-api.container';
import { eventsModule } from '../../apps/core-api/modules/events.module';
import { webhooksModule, type WebhooksModuleOptions } from '../../apps/core-api/modules/webhooks.module';
import { workflowsModule } from '../../apps/core-api/modules/workflows.module';
import { composeApp, type ComposedApp } from '../../apps/shared/compose';
import { createInfrastructure, type Infrastructure } from '../../apps/shared/infrastructure';
import { listen, type Listening } from '../../apps/shared/serve';
import { createLogger } from '../../adapters/logging/logger';
import type { Clock } from '../../core/shared/clock.port';
import { TestClient } from './http-client';
import { FAST_HASHING, stopListening, type TestStack } from './test-stack';

export interface EventsInstanceOptions {
  /** Unique per test run: BullMQ keys of the events and webhooks queues live under it. */
  jobPrefix: string;
  webhooks?: WebhooksModuleOptions;
  clock?: Clock;
  sweepIntervalMs?: number;
}

export interface EventsInstance {
  app: ComposedApp;
  infra: Infrastructure;
  client: TestClient;
  close(): Promise<void>;
}

export const uniquePrefix = (name: string): string => `test-${name}-${randomBytes(4).toString('hex')}`;

/** A core API on the stack's database and configuration, with its own queues' prefix and test options. */
export async function startEventsInstance(stack: TestStack, options: EventsInstanceOptions): Promise<EventsInstance> {
  const infra = await createInfrastructure(stack.config, { database: stack.infra.database, logger: createLogger('silent') });
  if (options.clock) infra.clock = options.clock;
  const modules = coreApiModules(infra, { passwordHashing: FAST_HASHING }).map((m) => {
    if (m.name === 'events') return eventsModule({ jobPrefix: `${options.jobPrefix}-events`, sweepIntervalMs: options.sweepIntervalMs ?? 200 });
    if (m.name === 'workflows') return workflowsModule({ jobPrefix: `${options.jobPrefix}-workflows`, sweepIntervalMs: options.sweepIntervalMs ?? 200 });
    if (m.name === 'webhooks') return webhooksModule({ jobPrefix: `${options.jobPrefix}-webhooks`, sweepIntervalMs: options.sweepIntervalMs ?? 200, ...options.webhooks });
    return m;
  });
  const app = await composeApp('core-api', infra, modules);
  const listening: Listening = await listen(app, '127.0.0.1', 0);
  return {
    app,
    infra,
    client: new TestClient(listening.url),
    async close() {
      await stopListening(listening);
      await app.stop();
      await infra.cache.close?.();
      infra.redis?.disconnect();
    },
  };
}
