import { parseTraceparent } from '../domain/trace-context';
import { TurnTrace, type SpanAttributes, type TraceOptions } from '../domain/turn-trace';
import type { SpanSink } from '../ports/span-sink.port';
import type { RecordedSpan } from '../domain/span';

/** Hands a trace's spans to every sink (the store's writer, the OTLP exporter). */
export class FanOutSink implements SpanSink {
  constructor(private readonly sinks: readonly SpanSink[]) {}

  submit(spans: readonly RecordedSpan[]): void {
    for (const sink of this.sinks) sink.submit(spans);
  }

  async flush(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.flush()));
  }
}

/**
 * Starts the traces of chat turns (docs/observability.md). One per process; `enabled: false` (TRACES_ENABLED=false)
 * starts none, and every recording call on the turn's path is then skipped by its `trace?.` guard.
 */
export class Tracer {
  constructor(private readonly options: TraceOptions & { enabled: boolean }) {}

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** A new trace whose root span is the turn's. */
  startTurn(name: string, attributes?: SpanAttributes): TurnTrace | undefined {
    if (!this.options.enabled) return undefined;
    return new TurnTrace(this.options, name, attributes);
  }

  /**
   * The part of a turn's trace recorded in this process when the turn began in another (the AI service run apart):
   * same trace id, its root under the caller's span. Without a valid `traceparent` (a caller that traces nothing,
   * or tracing off there) nothing is recorded: the part would belong to no turn's trace.
   */
  continueFrom(traceparent: string | undefined, name: string, attributes?: SpanAttributes): TurnTrace | undefined {
    if (!this.options.enabled) return undefined;
    const remote = parseTraceparent(traceparent);
    if (!remote) return undefined;
    return new TurnTrace(this.options, name, attributes, { traceId: remote.traceId, parentSpanId: remote.spanId }, 'server');
  }
}
