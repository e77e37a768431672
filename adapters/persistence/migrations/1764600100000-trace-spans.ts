import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Traces of chat turns (issue 46, docs/observability.md). One row per part of a trace as one process recorded it
 * (the core API's turn; the AI service's part when it runs apart), its spans in a JSON array: a turn's trace is one
 * or two rows, not one per span, and the array is kept as text (the reader parses it; no jsonb parsing in the
 * database), which keeps the batched writes cheap on the embedded PGlite. The core API's part
 * carries the assistant message the turn produced (`message_id`), which is how the application's logs find a
 * message's trace; parts join by `trace_id`. Rows older than TRACE_RETENTION_DAYS are swept by `started_at`. No
 * foreign keys: rows are written in batches off the turn's path, and a batch must not fail for a conversation a
 * refused first turn never created.
 */
export class TraceSpans1764600100000 implements MigrationInterface {
  name = 'TraceSpans1764600100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE trace_spans (
        trace_id char(32) NOT NULL,
        part_id char(16) NOT NULL,
        started_at timestamptz NOT NULL,
        message_id uuid,
        conversation_id uuid,
        application_id uuid,
        span_count integer NOT NULL,
        spans text NOT NULL,
        PRIMARY KEY (trace_id, part_id)
      )`);
    await q.query(`CREATE INDEX trace_spans_message_idx ON trace_spans (message_id) WHERE message_id IS NOT NULL`);
    await q.query(`CREATE INDEX trace_spans_started_idx ON trace_spans (started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE trace_spans`);
  }
}
