import type { Container } from 'inversify';
import { registerTraceMetrics } from '../../../adapters/metrics/trace-metrics';
import { SweepExpiredTracesUseCase } from '../../../core/traces/use-cases/sweep-expired-traces.use-case';
import { timedPolicy, TraceTurnPolicy } from '../../../core/traces/use-cases/trace-policy';
import { provide, type AppModule } from '../../shared/app-module';
import { bindTraceRecording, flushTraces } from '../../shared/modules/trace-recording';
import { TOKENS, resolve } from '../../shared/tokens';
import { ANALYTICS_TOKENS } from './analytics.tokens';
import type { ChatPolicyFactory } from './conversations.tokens';
import { TRACE_TOKENS } from './traces.tokens';

/**
 * Traces of chat turns (docs/observability.md): recorded along every turn, written off its path in batches,
 * exported over OTLP when configured, swept after TRACE_RETENTION_DAYS. Read through `TRACE_TOKENS.Reader`.
 */
export function tracesModule(options: { sweepIntervalMs?: number } = {}): AppModule {
  return {
    name: 'traces',
    bind(c: Container) {
      bindTraceRecording(c, 'core-api');
      provide(c, SweepExpiredTracesUseCase, (get) =>
        new SweepExpiredTracesUseCase({ store: get(TRACE_TOKENS.Store), clock: get(TOKENS.Clock), retentionDays: get(TOKENS.Config).traces?.retentionDays ?? 30 }),
      );
    },
    async start(c: Container) {
      const writer = resolve(c, TRACE_TOKENS.Writer);
      const sink = resolve(c, TRACE_TOKENS.Sink);
      if (c.isBound(ANALYTICS_TOKENS.Metrics)) {
        registerTraceMetrics(resolve(c, ANALYTICS_TOKENS.Metrics).registry, { dropped: () => sink.dropped ?? writer.dropped, queued: () => writer.queued, written: () => writer.written });
      }
      const sweep = resolve(c, SweepExpiredTracesUseCase);
      const logger = resolve(c, TOKENS.Logger);
      const run = () => void sweep.execute().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'expired trace sweep failed'));
      run();
      const timer = setInterval(run, options.sweepIntervalMs ?? 3_600_000);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await flushTraces(c);
      };
    },
  };
}

/**
 * The chat policies with the turn's trace around them: a first policy starts the trace, and each policy's
 * `prepare` is a span of it (see `tracedPolicies`). With TRACES_ENABLED=false they run as given.
 */
export function tracedChatPolicies(factories: ChatPolicyFactory[]): ChatPolicyFactory[] {
  const enabled = (c: Container) => resolve(c, TRACE_TOKENS.Tracer).enabled;
  return [
    (c) => new TraceTurnPolicy(resolve(c, TRACE_TOKENS.Tracer)),
    ...factories.map((factory): ChatPolicyFactory => (c) => (enabled(c) ? timedPolicy(factory(c)) : factory(c))),
  ];
}
