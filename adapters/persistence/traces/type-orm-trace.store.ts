import type { DataSource } from 'typeorm';
import type { RecordedSpan } from '../../../core/traces/domain/span';
import type { SpanView, TraceView } from '../../../core/traces/domain/trace-view';
import type { TraceStore } from '../../../core/traces/ports/trace-store.port';
import { isUuid } from '../../../core/shared/ids';
import { ambientTransaction, rows } from '../sql';

/** A span as stored in its part's JSON array. */
interface StoredSpan {
  id: string;
  parent: string | null;
  name: string;
  kind: RecordedSpan['kind'];
  start: number;
  ms: number;
  status: 'ok' | 'error';
  message?: string;
  attributes: SpanView['attributes'];
}

const uuidOrNull = (v: string | undefined): string | null => (v !== undefined && isUuid(v) ? v : null);

/**
 * Traces in `trace_spans` (PostgreSQL and PGlite): each batch's spans grouped by trace into one row per part, one
 * multi-row INSERT per batch; read by the assistant messages their turns produced, every part of the trace joined.
 */
export class TypeOrmTraceStore implements TraceStore {
  constructor(private readonly db: DataSource) {}

  async insert(spans: readonly RecordedSpan[]): Promise<void> {
    if (spans.length === 0) return;
    const parts = new Map<string, RecordedSpan[]>();
    for (const s of spans) {
      const part = parts.get(s.traceId);
      if (part) part.push(s);
      else parts.set(s.traceId, [s]);
    }
    const list = [...parts.values()];
    const col = <T>(f: (part: RecordedSpan[]) => T) => list.map(f);
    const keyed = (part: RecordedSpan[], key: 'messageId' | 'conversationId' | 'applicationId') => uuidOrNull(part.find((s) => s[key] !== undefined)?.[key]);
    // Never inside a turn's transaction, whichever async context started the batch; a part written twice is kept once.
    await ambientTransaction.exit(() =>
      rows(
        this.db,
        `INSERT INTO trace_spans (trace_id, part_id, started_at, message_id, conversation_id, application_id, span_count, spans)
         SELECT u.trace_id, u.part_id, to_timestamp(u.start_ms / 1000.0), u.message_id, u.conversation_id, u.application_id, u.span_count, u.spans
           FROM unnest($1::text[], $2::text[], $3::float8[], $4::uuid[], $5::uuid[], $6::uuid[], $7::int[], $8::text[])
                AS u(trace_id, part_id, start_ms, message_id, conversation_id, application_id, span_count, spans)
         ON CONFLICT (trace_id, part_id) DO NOTHING`,
        [
          col((p) => p[0]!.traceId),
          // The part's first span names it: the same batch written again is the same part.
          col((p) => p[0]!.spanId),
          col((p) => Math.min(...p.map((s) => s.startMs))),
          col((p) => keyed(p, 'messageId')),
          col((p) => keyed(p, 'conversationId')),
          col((p) => keyed(p, 'applicationId')),
          col((p) => p.length),
          col((p) => JSON.stringify(p.map(toStored))),
        ],
      ),
    );
  }

  async forMessages(messageIds: readonly string[]): Promise<Map<string, TraceView>> {
    const ids = [...new Set(messageIds.filter((id) => isUuid(id)))];
    const traces = new Map<string, TraceView>();
    if (ids.length === 0) return traces;
    const found = await rows<{ keyed_message: string; trace_id: string; spans: StoredSpan[] | string }>(
      this.db,
      `SELECT r.message_id AS keyed_message, t.trace_id, t.spans
         FROM trace_spans r
         JOIN trace_spans t ON t.trace_id = r.trace_id
        WHERE r.message_id = ANY($1::uuid[])`,
      [ids],
    );
    const parts = new Map<string, { traceId: string; spans: StoredSpan[] }>();
    for (const row of found) {
      let part = parts.get(row.keyed_message);
      if (!part) parts.set(row.keyed_message, (part = { traceId: row.trace_id, spans: [] }));
      part.spans.push(...(typeof row.spans === 'string' ? (JSON.parse(row.spans) as StoredSpan[]) : row.spans));
    }
    for (const [messageId, { traceId, spans }] of parts) {
      const ids = new Set(spans.map((s) => s.id));
      // Root first (the span without a parent in the trace), then by start time (to the microsecond).
      const isRoot = (s: StoredSpan) => s.parent === null || !ids.has(s.parent);
      spans.sort((a, b) => Number(isRoot(b)) - Number(isRoot(a)) || a.start - b.start);
      traces.set(messageId, { traceId, spans: spans.map(toView) });
    }
    return traces;
  }

  async deleteStartedBefore(before: Date): Promise<number> {
    const deleted = await rows<{ n: string }>(this.db, `WITH d AS (DELETE FROM trace_spans WHERE started_at < $1 RETURNING span_count) SELECT coalesce(sum(span_count), 0) AS n FROM d`, [before]);
    return Number(deleted[0]?.n ?? 0);
  }
}

function toStored(s: RecordedSpan): StoredSpan {
  return {
    id: s.spanId,
    parent: s.parentSpanId,
    name: s.name.slice(0, 200),
    kind: s.kind,
    start: s.startMs,
    ms: s.durationMs,
    status: s.status,
    ...(s.statusMessage !== undefined ? { message: s.statusMessage.slice(0, 500) } : {}),
    attributes: s.attributes,
  };
}

function toView(s: StoredSpan): SpanView {
  return {
    spanId: s.id,
    parentSpanId: s.parent,
    name: s.name,
    // Microseconds survive in `start` (milliseconds with a fraction); ISO 8601 shows milliseconds.
    startTime: new Date(s.start).toISOString(),
    durationMs: Math.round(s.ms * 1000) / 1000,
    status: s.status,
    ...(s.message ? { statusMessage: s.message } : {}),
    attributes: s.attributes,
  };
}
