import type { RecordedSpan } from '../domain/span';

/**
 * Where finished spans go (the store's writer, the OTLP exporter). `submit` must return at once and never throw:
 * it is called on a chat turn's path. A sink that cannot keep up drops spans and counts them.
 */
export interface SpanSink {
  submit(spans: readonly RecordedSpan[]): void;
  /** Sends what is queued (on shutdown, and in tests). */
  flush(): Promise<void>;
}
