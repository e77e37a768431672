import type { Container } from 'inversify';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import {
  circuitBreakersComponent,
  databaseComponent,
  diskComponent,
  jobQueuesComponent,
  providersComponent,
  redisComponent,
  serviceComponent,
} from '../../../adapters/health/system-components';
import { systemHealthRouter } from '../../../adapters/http/system-health/system-health.router';
import { eventOutboxBacklog } from '../../../adapters/persistence/analytics/outbox-backlog';
import { GetSystemHealthUseCase } from '../../../core/health/use-cases/get-system-health.use-case';
import { provide, type AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { boundJobQueues } from './job-queues';
import { ANALYTICS_TOKENS } from './analytics.tokens';

/**
 * `GET /api/system-health` (admins): database, Redis, the AI service, the marketplace, the job queues,
 * the providers' recent calls and DATA_DIR's disk. `remoteAi`: the AI service's URL when chat goes to it
 * over HTTP (absent, the engine runs in this process). Needs the analytics module (provider reachability).
 */
export function systemHealthModule(remoteAi: string | undefined): AppModule {
  return {
    name: 'system-health',
    bind(c: Container) {
      provide(c, GetSystemHealthUseCase, (get) => {
        const config = get(TOKENS.Config);
        const db = get(TOKENS.DataSource);
        return new GetSystemHealthUseCase({
          clock: get(TOKENS.Clock),
          components: [
            databaseComponent(db),
            redisComponent(c.isBound(TOKENS.Redis) ? get(TOKENS.Redis) : undefined),
            serviceComponent('aiService', remoteAi, true),
            serviceComponent('marketplace', config.marketplaceUrl),
            jobQueuesComponent(() => boundJobQueues(c), () => eventOutboxBacklog(db)),
            providersComponent(get(ANALYTICS_TOKENS.ProviderReachability), get(TOKENS.Clock)),
            diskComponent(config.dataDir),
            circuitBreakersComponent(() => get(CHAT_TOKENS.Resilience).breakers.snapshot()),
          ],
        });
      });
    },
    routers: (c) => [systemHealthRouter({ auth: resolve(c, TOKENS.AuthMiddleware), health: resolve(c, GetSystemHealthUseCase) })],
  };
}
