import type { Container } from 'inversify';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { failedAttempts } from '../../../core/ai/use-cases/turn-routes';
import { analyticsRouter, apiCallCounter, widgetLoadRouter } from '../../../adapters/http/analytics/analytics.router';
import { metricsRouter, requestMetrics } from '../../../adapters/http/metrics/metrics.router';
import { apiKeyAuth } from '../../../adapters/http/public-api/api-key.middleware';
import { PlatformMetrics } from '../../../adapters/metrics/prom-client.metrics';
import { TypeOrmAnalyticsStore } from '../../../adapters/persistence/analytics/type-orm-analytics.store';
import { eventOutboxBacklog } from '../../../adapters/persistence/analytics/outbox-backlog';
import { queueDepths } from '../../../adapters/health/system-components';
import { AnalyticsRecorder } from '../../../core/analytics/use-cases/analytics-recorder';
import { AnalyticsChatPolicy } from '../../../core/analytics/use-cases/analytics.policy';
import { GetAnalyticsUseCase } from '../../../core/analytics/use-cases/get-analytics.use-case';
import { RecordWidgetLoadUseCase } from '../../../core/analytics/use-cases/record-widget-load.use-case';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { ProviderReachability } from '../../../core/health/domain/provider-reachability';
import { provide, type AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import type { ChatPolicyFactory } from './conversations.tokens';
import { ANALYTICS_TOKENS } from './analytics.tokens';
import { boundJobQueues } from './job-queues';

/** Runs last among the chat policies: it counts the turns every other policy admitted. */
export const analyticsPolicy: ChatPolicyFactory = (c) => resolve(c, AnalyticsChatPolicy);

/**
 * Analytics (events counted in memory, written to the rollup in batches; the four reads), the
 * widget's load report, and the Prometheus metrics at `/metrics` behind METRICS_TOKEN.
 */
export const analyticsModule: AppModule = {
  name: 'analytics',
  bind(c: Container) {
    provide(c, ANALYTICS_TOKENS.Store, (get) => new TypeOrmAnalyticsStore(get(TOKENS.DataSource)));
    provide(c, ANALYTICS_TOKENS.Recorder, (get) => {
      const logger = get(TOKENS.Logger);
      return new AnalyticsRecorder({
        store: get(ANALYTICS_TOKENS.Store),
        clock: get(TOKENS.Clock),
        onError: (err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'writing analytics counts failed; kept for the next flush'),
      });
    });
    provide(c, ANALYTICS_TOKENS.ProviderReachability, () => new ProviderReachability());
    provide(c, ANALYTICS_TOKENS.Metrics, (get) => {
      const db = get(TOKENS.DataSource);
      const resilience = get(CHAT_TOKENS.Resilience);
      return new PlatformMetrics(
        async () => [
          ...(await queueDepths(boundJobQueues(c))),
          { name: 'event-outbox', waiting: await eventOutboxBacklog(db), active: 0, delayed: 0 },
        ],
        { breakers: () => resilience.breakers.snapshot(), failedAttempts: () => failedAttempts.entries() },
      );
    });
    provide(c, AnalyticsChatPolicy, (get) => {
      const metrics = get(ANALYTICS_TOKENS.Metrics);
      const reachability = get(ANALYTICS_TOKENS.ProviderReachability);
      const clock = get(TOKENS.Clock);
      return new AnalyticsChatPolicy({
        recorder: get(ANALYTICS_TOKENS.Recorder),
        observers: [(t) => metrics.turn(t), (t) => reachability.record(t.provider, t.providerFailed, clock.now(), t.latencyMs)],
      });
    });
    provide(c, GetAnalyticsUseCase, (get) =>
      new GetAnalyticsUseCase({
        store: get(ANALYTICS_TOKENS.Store),
        applications: get(TOKENS.ApplicationRepository),
        recorder: get(ANALYTICS_TOKENS.Recorder),
        prices: get(TOKENS.Config).modelPrices,
        clock: get(TOKENS.Clock),
      }),
    );
    provide(c, RecordWidgetLoadUseCase, (get) => new RecordWidgetLoadUseCase({ applications: get(TOKENS.ApplicationRepository), recorder: get(ANALYTICS_TOKENS.Recorder) }));
  },
  middleware: (c) => [requestMetrics(resolve(c, ANALYTICS_TOKENS.Metrics)), apiCallCounter(resolve(c, ANALYTICS_TOKENS.Recorder), resolve(c, TOKENS.ApplicationRepository))],
  routers: (c) => [
    analyticsRouter({ auth: resolve(c, TOKENS.AuthMiddleware), analytics: resolve(c, GetAnalyticsUseCase) }),
    widgetLoadRouter({ apiKey: apiKeyAuth(resolve(c, AuthenticateApiKeyUseCase)), recordLoad: resolve(c, RecordWidgetLoadUseCase) }),
    metricsRouter(resolve(c, ANALYTICS_TOKENS.Metrics), resolve(c, TOKENS.Config).metricsToken),
  ],
  async start(c: Container) {
    const recorder = resolve(c, ANALYTICS_TOKENS.Recorder);
    const every = resolve(c, TOKENS.Config).analyticsFlushMs;
    // Failures are logged by the recorder and its counts kept for the next run.
    const timer = setInterval(() => void recorder.flush().catch(() => undefined), every);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await recorder.flush().catch(() => undefined);
    };
  },
};
