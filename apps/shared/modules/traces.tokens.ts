import type { TraceReader } from '../../../core/traces/domain/trace-view';
import type { SpanSink } from '../../../core/traces/ports/span-sink.port';
import type { TraceStore } from '../../../core/traces/ports/trace-store.port';
import type { Tracer } from '../../../core/traces/use-cases/tracer';
import type { TraceWriter } from '../../../core/traces/use-cases/trace-writer';
import { token } from '../tokens';

/** Identifiers of the traces area (docs/observability.md), shared by the core API and the AI service. */
export const TRACE_TOKENS = {
  /** Starts a turn's trace (`startTurn`) or continues one from another process (`continueFrom`). */
  Tracer: token<Tracer>('traces.Tracer'),
  /** Stored spans (`trace_spans`). */
  Store: token<TraceStore>('traces.TraceStore'),
  /** Reads a message's trace: what the application's logs and evaluations bind their TraceReader to. */
  Reader: token<TraceReader>('traces.TraceReader'),
  /** The bounded queue that writes spans to the store in batches. */
  Writer: token<TraceWriter>('traces.TraceWriter'),
  /** Every sink a finished trace goes to (the writer, and the OTLP exporter when configured). */
  Sink: token<SpanSink & { dropped?: number }>('traces.SpanSink'),
  /** The OTLP exporter, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  Otlp: token<SpanSink & { dropped: number; shutdown(): Promise<void> }>('traces.OtlpSink'),
} as const;
