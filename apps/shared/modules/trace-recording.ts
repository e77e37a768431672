import type { Container } from 'inversify';
import { TypeOrmTraceStore } from '../../../adapters/persistence/traces/type-orm-trace.store';
import { OtlpSpanSink } from '../../../adapters/traces/otlp-span-sink';
import { answerCost } from '../../../core/conversations/domain/answer-cost';
import { FanOutSink, Tracer } from '../../../core/traces/use-cases/tracer';
import { TraceWriter } from '../../../core/traces/use-cases/trace-writer';
import type { SpanSink } from '../../../core/traces/ports/span-sink.port';
import { provide } from '../app-module';
import type { AppConfig } from '../config';
import type { TracesConfig } from '../traces-config';
import { TOKENS, resolve } from '../tokens';
import { TRACE_TOKENS } from './traces.tokens';

const tracesOf = (config: AppConfig): TracesConfig => config.traces ?? { enabled: true, retentionDays: 30, captureContent: false };

/** What the traces of a process need, whether it is the core API or the AI service: the store, the writer, OTLP, the tracer. */
export function bindTraceRecording(c: Container, serviceName: string): void {
  provide(c, TRACE_TOKENS.Store, (get) => new TypeOrmTraceStore(get(TOKENS.DataSource)));
  provide(c, TRACE_TOKENS.Reader, (get) => get(TRACE_TOKENS.Store));
  provide(c, TRACE_TOKENS.Writer, (get) => {
    const logger = get(TOKENS.Logger);
    return new TraceWriter({ store: get(TRACE_TOKENS.Store), onError: (err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'writing trace spans failed; the batch was dropped') });
  });
  provide(c, TRACE_TOKENS.Otlp, (get) => {
    const traces = tracesOf(get(TOKENS.Config));
    if (!traces.otlp) throw new Error('OTLP export is not configured');
    return new OtlpSpanSink({ ...traces.otlp, serviceName: traces.otlp.serviceName ?? serviceName, captureContent: traces.captureContent });
  });
  provide(c, TRACE_TOKENS.Sink, (get) => {
    const writer = get(TRACE_TOKENS.Writer);
    const exporter = tracesOf(get(TOKENS.Config)).otlp ? get(TRACE_TOKENS.Otlp) : undefined;
    const sinks: SpanSink[] = exporter ? [writer, exporter] : [writer];
    return Object.assign(new FanOutSink(sinks), { get dropped() { return writer.dropped + (exporter?.dropped ?? 0); } });
  });
  provide(c, TRACE_TOKENS.Tracer, (get) => {
    const traces = tracesOf(get(TOKENS.Config));
    const prices = get(TOKENS.Config).modelPrices;
    return new Tracer({
      enabled: traces.enabled,
      sink: get(TRACE_TOKENS.Sink),
      captureContent: traces.captureContent,
      cost: (provider, model, usage) => answerCost(prices, { provider, model, usage }),
    });
  });
}

/** On shutdown: what is queued is written and exported before the database closes. */
export async function flushTraces(c: Container): Promise<void> {
  await resolve(c, TRACE_TOKENS.Writer).flush();
  const traces = resolve(c, TOKENS.Config).traces;
  if (traces?.otlp) await resolve(c, TRACE_TOKENS.Otlp).shutdown();
}
