import type { DataSource } from 'typeorm';
import type { RecordedSpan } from '../../../core/traces/domain/span';
import type { SpanView, TraceView } from '../../../core/traces/domain/trace-view';
import type { TraceStore } from '../../../core/traces/ports/trace-store.port';
import { isUuid } from '../../../core/shared/ids';
import { ambientTransaction, rows } from '../sql';

interface SpanRow {
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  start_time: Date | string;
  duration_ms: number | string;
  status: 'ok' | 'error';
  status_message: string | null;
  attributes: Record<string, SpanView['attributes'][string]> | string;
  message_id: string | null;
}

/** jsonb refuses the NUL character, which a tool's result may hold. */
const NUL_ESCAPE = /(?<!\\)\\u0000/g;
const uuidOrNull = (v: string | undefined): string | null => (v !== undefined && isUuid(v) ? v : null);

/** Spans in `trace_spans` (PostgreSQL and PGlite): batched inserts, read by the assistant messages their turns produced. */
export class TypeOrmTraceStore implements TraceStore {
  constructor(private readonly db: DataSource) {}

  async insert(spans: readonly RecordedSpan[]): Promise<void> {
    if (spans.length === 0) return;
    const col = <T>(f: (s: RecordedSpan) => T) => spans.map(f);
    // One statement per batch; a span written twice (a retried batch) is kept once.
    // Never inside a turn's transaction, whichever async context started the batch.
    await ambientTransaction.exit(() => rows(
      this.db,
      `INSERT INTO trace_spans (trace_id, span_id, parent_span_id, name, kind, start_time, duration_ms, status, status_message, attributes, message_id, conversation_id, application_id)
       SELECT u.trace_id, u.span_id, u.parent_span_id, u.name, u.kind, to_timestamp(u.start_ms / 1000.0), u.duration_ms, u.status, u.status_message,
              u.attributes::jsonb, u.message_id, u.conversation_id, u.application_id
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::text[], $9::text[], $10::text[], $11::uuid[], $12::uuid[], $13::uuid[])
              AS u(trace_id, span_id, parent_span_id, name, kind, start_ms, duration_ms, status, status_message, attributes, message_id, conversation_id, application_id)
       ON CONFLICT (trace_id, span_id) DO NOTHING`,
      [
        col((s) => s.traceId),
        col((s) => s.spanId),
        col((s) => s.parentSpanId),
        col((s) => s.name.slice(0, 200)),
        col((s) => s.kind),
        col((s) => s.startMs),
        col((s) => s.durationMs),
        col((s) => s.status),
        col((s) => s.statusMessage?.slice(0, 500) ?? null),
        col((s) => JSON.stringify(s.attributes).replace(NUL_ESCAPE, '')),
        col((s) => uuidOrNull(s.messageId)),
        col((s) => uuidOrNull(s.conversationId)),
        col((s) => uuidOrNull(s.applicationId)),
      ],
    ));
  }

  async forMessages(messageIds: readonly string[]): Promise<Map<string, TraceView>> {
    const ids = [...new Set(messageIds.filter((id) => isUuid(id)))];
    const traces = new Map<string, TraceView>();
    if (ids.length === 0) return traces;
    const found = await rows<SpanRow & { keyed_message: string }>(
      this.db,
      `SELECT r.message_id AS keyed_message, s.trace_id, s.span_id, s.parent_span_id, s.name, s.start_time, s.duration_ms, s.status, s.status_message, s.attributes, s.message_id
         FROM trace_spans r
         JOIN trace_spans s ON s.trace_id = r.trace_id
        WHERE r.message_id = ANY($1::uuid[])
        ORDER BY r.message_id, s.start_time, s.parent_span_id NULLS FIRST`,
      [ids],
    );
    for (const row of found) {
      let trace = traces.get(row.keyed_message);
      if (!trace) traces.set(row.keyed_message, (trace = { traceId: row.trace_id, spans: [] }));
      trace.spans.push(toView(row));
    }
    // The root first, then by start time (a span of the AI service may start within the same millisecond).
    for (const trace of traces.values()) {
      const root = trace.spans.findIndex((s) => s.parentSpanId === null || !trace.spans.some((p) => p.spanId === s.parentSpanId));
      if (root > 0) trace.spans.unshift(...trace.spans.splice(root, 1));
    }
    return traces;
  }

  async deleteStartedBefore(before: Date): Promise<number> {
    const deleted = await rows<{ n: string }>(this.db, `WITH d AS (DELETE FROM trace_spans WHERE start_time < $1 RETURNING 1) SELECT count(*) AS n FROM d`, [before]);
    return Number(deleted[0]?.n ?? 0);
  }
}

function toView(row: SpanRow): SpanView {
  const attributes = typeof row.attributes === 'string' ? (JSON.parse(row.attributes) as SpanView['attributes']) : row.attributes;
  return {
    spanId: row.span_id,
    parentSpanId: row.parent_span_id,
    name: row.name,
    startTime: new Date(row.start_time).toISOString(),
    durationMs: Math.round(Number(row.duration_ms) * 1000) / 1000,
    status: row.status,
    ...(row.status_message ? { statusMessage: row.status_message } : {}),
    attributes,
  };
}
