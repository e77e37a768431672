import { newSpanId, newTraceId } from './ids';
import type { RecordedSpan, TraceKeys } from './span';
import { formatTraceparent } from './trace-context';
import type { SpanAttributeValue } from './trace-view';

export type SpanAttributes = Record<string, SpanAttributeValue | undefined | null>;
export type SpanKind = RecordedSpan['kind'];

const nowMs = (): number => performance.timeOrigin + performance.now();

/**
 * A span being recorded: the public API other areas use to add to a turn's trace (docs/observability.md).
 * Every method is cheap (no I/O): a span is a small object until the turn's trace is finished.
 */
export interface SpanHandle {
  readonly spanId: string;
  readonly traceId: string;
  /** Sets an attribute; undefined or null leaves it out. */
  set(key: string, value: SpanAttributeValue | undefined | null): SpanHandle;
  setAll(attributes: SpanAttributes): SpanHandle;
  /** Marks the span failed; `message` must hold no secret (use the error's public message, never a raw provider text). */
  fail(message: string, errorType?: string): SpanHandle;
  /** Starts a span under this one, now. */
  child(name: string, attributes?: SpanAttributes, kind?: SpanKind): SpanHandle;
  /** Ends it now (a second call does nothing). */
  end(): void;
}

/** What a trace is given by the tracer that started it. */
export interface TraceOptions {
  /** Receives the trace's spans when it is finished (the store's writer and, when configured, OTLP). */
  sink: { submit(spans: readonly RecordedSpan[]): void };
  /** Record message text on model rounds (OTEL_GENAI_CAPTURE_CONTENT=true). */
  captureContent: boolean;
  /** US dollars of a model round, null when unknown. */
  cost?: (provider: string, model: string, usage: { promptTokens: number; completionTokens: number; totalTokens: number }) => number | null;
}

class Span implements SpanHandle {
  readonly spanId = newSpanId();
  readonly startMs: number;
  private readonly attributes: Record<string, SpanAttributeValue> = {};
  private status: 'ok' | 'error' = 'ok';
  private statusMessage?: string;
  private ended = false;

  constructor(
    private readonly trace: TurnTrace,
    readonly name: string,
    readonly parentSpanId: string | null,
    readonly kind: SpanKind,
    attributes?: SpanAttributes,
    startMs?: number,
  ) {
    this.startMs = startMs ?? nowMs();
    if (attributes) this.setAll(attributes);
  }

  get traceId(): string {
    return this.trace.traceId;
  }

  set(key: string, value: SpanAttributeValue | undefined | null): SpanHandle {
    if (value !== undefined && value !== null) this.attributes[key] = value;
    return this;
  }

  setAll(attributes: SpanAttributes): SpanHandle {
    for (const key in attributes) this.set(key, attributes[key]);
    return this;
  }

  fail(message: string, errorType?: string): SpanHandle {
    this.status = 'error';
    this.statusMessage = message.slice(0, 500);
    if (errorType) this.attributes['error.type'] = errorType;
    return this;
  }

  child(name: string, attributes?: SpanAttributes, kind: SpanKind = 'internal'): SpanHandle {
    return this.trace.span(name, attributes, kind, this);
  }

  end(endMs?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.trace.ended(this.toRecord((endMs ?? nowMs()) - this.startMs));
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private toRecord(durationMs: number): RecordedSpan {
    return {
      traceId: this.trace.traceId,
      spanId: this.spanId,
      parentSpanId: this.parentSpanId,
      name: this.name,
      startMs: this.startMs,
      durationMs: Math.max(0, durationMs),
      status: this.status,
      ...(this.statusMessage !== undefined ? { statusMessage: this.statusMessage } : {}),
      attributes: this.attributes,
      kind: this.kind,
    };
  }
}

/**
 * The trace of one chat turn (or of the AI service's part of one), passed along the turn: the chat runner's
 * root span, the policies', retrieval's, each model round's and each tool call's. Spans are kept in memory and
 * handed to the sink in one piece when the trace is finished: recording costs the turn no statement.
 */
export class TurnTrace {
  readonly root: SpanHandle;
  private readonly spans: RecordedSpan[] = [];
  private readonly open = new Set<Span>();
  private keys: TraceKeys = {};
  private finished = false;
  readonly traceId: string;

  constructor(
    private readonly options: TraceOptions,
    rootName: string,
    rootAttributes: SpanAttributes = {},
    /** Continues a trace begun elsewhere (the core API's, over `traceparent`): its id and the span to hang under. */
    remote?: { traceId: string; parentSpanId: string },
    rootKind: SpanKind = 'server',
  ) {
    this.traceId = remote?.traceId ?? newTraceId();
    this.root = this.track(new Span(this, rootName, remote?.parentSpanId ?? null, rootKind, rootAttributes));
  }

  get captureContent(): boolean {
    return this.options.captureContent;
  }

  /** A model round's cost at the platform's prices, when the tracer knows them. */
  costOf(provider: string, model: string, usage: { promptTokens: number; completionTokens: number; totalTokens: number }): number | null {
    return this.options.cost ? this.options.cost(provider, model, usage) : null;
  }

  /** Starts a span under the root (or under `parent`), now. */
  span(name: string, attributes?: SpanAttributes, kind: SpanKind = 'internal', parent?: SpanHandle): SpanHandle {
    return this.track(new Span(this, name, (parent ?? this.root).spanId, kind, attributes));
  }

  /** A span that already happened (start and duration known), under the root or `parent`. */
  record(name: string, startMs: number, durationMs: number, attributes?: SpanAttributes, options: { parent?: SpanHandle; error?: string; kind?: SpanKind } = {}): void {
    const span = new Span(this, name, (options.parent ?? this.root).spanId, options.kind ?? 'internal', attributes, startMs);
    if (options.error !== undefined) span.fail(options.error);
    span.end(startMs + durationMs);
  }

  /** The W3C `traceparent` of a span of this trace (the root by default), for a call to another process. */
  traceparent(of: SpanHandle = this.root): string {
    return formatTraceparent(this.traceId, of.spanId);
  }

  /** What the trace is keyed to: the assistant message the turn produced, its conversation and application. */
  keyTo(keys: TraceKeys): void {
    this.keys = { ...this.keys, ...Object.fromEntries(Object.entries(keys).filter(([, v]) => typeof v === 'string' && v !== '')) };
  }

  /**
   * Ends the spans still open (the root last) and hands the trace to the sink. Spans ended after this are
   * handed over on their own.
   */
  finish(): void {
    if (this.finished) return;
    const end = nowMs();
    for (const span of this.open) if (span !== this.root) span.end(end);
    (this.root as Span).end(end);
    this.finished = true;
    const rootId = this.root.spanId;
    for (const span of this.spans) {
      if (span.spanId === rootId) Object.assign(span, this.keys);
      else if (this.keys.conversationId) span.conversationId = this.keys.conversationId;
    }
    this.options.sink.submit(this.spans);
  }

  /** @internal Called by a span when it ends. */
  ended(span: RecordedSpan): void {
    if (this.finished) {
      this.options.sink.submit([{ ...span, ...(this.keys.conversationId ? { conversationId: this.keys.conversationId } : {}) }]);
      return;
    }
    this.spans.push(span);
  }

  private track(span: Span): Span {
    this.open.add(span);
    return span;
  }
}
