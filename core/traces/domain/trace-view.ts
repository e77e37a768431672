/**
 * A recorded trace as the owner reads it (docs/shared OBSERVE.md "Traces"): a tree of spans of one chat turn.
 * This is the contract between the traces area (which records and stores spans) and the readers of traces
 * (the application's logs, evaluation results). Attribute names follow the OpenTelemetry GenAI semantic
 * conventions (`gen_ai.operation.name`, `gen_ai.request.model`, `gen_ai.usage.input_tokens`, ...).
 */
export type SpanAttributeValue = string | number | boolean | string[] | number[];

export interface SpanView {
  spanId: string;
  /** Null for the turn's root span. */
  parentSpanId: string | null;
  /** e.g. `chat.turn`, `retrieval`, `chat <model>`, `execute_tool <name>`, `quota`, `annotation.reply`. */
  name: string;
  /** ISO 8601 start time. */
  startTime: string;
  durationMs: number;
  status: 'ok' | 'error';
  /** Set when `status` is `error`: a short description with no secret in it. */
  statusMessage?: string;
  attributes: Record<string, SpanAttributeValue>;
}

export interface TraceView {
  traceId: string;
  /** Spans ordered by start time, the root first. */
  spans: SpanView[];
}

/** Reads stored traces by the assistant message each turn produced. */
export interface TraceReader {
  /** The traces of these assistant messages (a message without a stored trace is absent from the map). */
  forMessages(messageIds: readonly string[]): Promise<Map<string, TraceView>>;
}
