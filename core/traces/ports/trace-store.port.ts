import type { RecordedSpan } from '../domain/span';
import type { TraceReader } from '../domain/trace-view';

/** Stored spans (the `trace_spans` table): written in batches off the turn's path, read by assistant message. */
export interface TraceStore extends TraceReader {
  /** Inserts a batch of spans in one statement. */
  insert(spans: readonly RecordedSpan[]): Promise<void>;
  /** Deletes the spans of traces that started before `before` (retention); answers how many went. */
  deleteStartedBefore(before: Date): Promise<number>;
}
