import type { RecordedSpan } from '../domain/span';
import type { SpanSink } from '../ports/span-sink.port';
import type { TraceStore } from '../ports/trace-store.port';

export interface TraceWriterOptions {
  store: TraceStore;
  /** Most spans held in memory; past it new spans are dropped and counted (a turn never waits). */
  maxQueue?: number;
  /** Spans per INSERT. */
  batchSize?: number;
  /** How long a span may wait for its batch to fill. */
  flushIntervalMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Writes spans off the turn's path: `submit` only appends to a bounded in-memory queue; one writer at a time
 * drains it in batches of one multi-row INSERT each. When the store falls behind and the queue is full, new
 * spans are dropped and counted (`dropped`, the `trace_spans_dropped_total` metric), never blocking a turn.
 */
export class TraceWriter implements SpanSink {
  private queue: RecordedSpan[] = [];
  private droppedCount = 0;
  private writtenCount = 0;
  private writing: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly maxQueue: number;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;

  constructor(private readonly options: TraceWriterOptions) {
    this.maxQueue = options.maxQueue ?? 20_000;
    this.batchSize = options.batchSize ?? 2000;
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
  }

  /** Spans dropped because the queue was full, since start. */
  get dropped(): number {
    return this.droppedCount;
  }

  get written(): number {
    return this.writtenCount;
  }

  get queued(): number {
    return this.queue.length;
  }

  submit(spans: readonly RecordedSpan[]): void {
    const room = this.maxQueue - this.queue.length;
    if (room <= 0) {
      this.droppedCount += spans.length;
      return;
    }
    if (spans.length <= room) for (const span of spans) this.queue.push(span);
    else {
      for (let i = 0; i < room; i++) this.queue.push(spans[i]!);
      this.droppedCount += spans.length - room;
    }
    if (this.writing) return;
    if (this.queue.length >= this.batchSize) this.kick();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.kick(), this.flushIntervalMs);
      this.timer.unref?.();
    }
  }

  /** Writes everything queued so far (shutdown, tests). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.writing) {
      if (!this.writing) this.kick();
      await this.writing;
    }
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.writing || this.queue.length === 0) return;
    this.writing = this.drain().finally(() => {
      this.writing = null;
      // What arrived while writing: a full batch goes at once, a partial one after the interval.
      if (this.queue.length >= this.batchSize) this.kick();
      else if (this.queue.length > 0 && !this.timer) {
        this.timer = setTimeout(() => this.kick(), this.flushIntervalMs);
        this.timer.unref?.();
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.length <= this.batchSize ? this.queue : this.queue.slice(0, this.batchSize);
      this.queue = this.queue.length <= this.batchSize ? [] : this.queue.slice(this.batchSize);
      try {
        await this.options.store.insert(batch);
        this.writtenCount += batch.length;
      } catch (error) {
        // A batch the store refused is not retried (it could be refused for ever); it counts as dropped.
        this.droppedCount += batch.length;
        this.options.onError?.(error);
      }
      if (this.queue.length < this.batchSize) return;
    }
  }
}
