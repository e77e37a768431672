import type { SpanAttributeValue } from './trace-view';

/** A finished span as the recorder hands it to storage and export. Times in milliseconds since the epoch. */
export interface RecordedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startMs: number;
  durationMs: number;
  status: 'ok' | 'error';
  statusMessage?: string;
  attributes: Record<string, SpanAttributeValue>;
  /** OpenTelemetry span kind: `client` for calls to a provider or a tool, `server` for a turn, else `internal`. */
  kind: 'internal' | 'server' | 'client';
  /** Set on a turn's root span: what the trace is keyed to (the assistant message the turn produced). */
  messageId?: string;
  conversationId?: string;
  applicationId?: string;
}

/** What the trace of a turn is keyed to. */
export interface TraceKeys {
  messageId?: string;
  conversationId?: string;
  applicationId?: string;
}
