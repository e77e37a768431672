import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Traces of chat turns (issue 46, docs/observability.md): one row per span. A turn's root span carries the
 * assistant message it produced (`message_id`), which is how the application's logs find a message's trace;
 * spans recorded by the AI service run apart join it by `trace_id`. Rows older than TRACE_RETENTION_DAYS are
 * swept by `start_time`. No foreign keys: spans are written in batches off the turn's path, and a batch must
 * not fail for a conversation a refused first turn never created.
 */
export class TraceSpans1764600100000 implements MigrationInterface {
  name = 'TraceSpans1764600100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE trace_spans (
        trace_id char(32) NOT NULL,
        span_id char(16) NOT NULL,
        parent_span_id char(16),
        name varchar(200) NOT NULL,
        kind varchar(10) NOT NULL DEFAULT 'internal',
        start_time timestamptz NOT NULL,
        duration_ms double precision NOT NULL,
        status varchar(5) NOT NULL,
        status_message varchar(500),
        attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
        message_id uuid,
        conversation_id uuid,
        application_id uuid,
        PRIMARY KEY (trace_id, span_id)
      )`);
    await q.query(`CREATE INDEX trace_spans_message_idx ON trace_spans (message_id) WHERE message_id IS NOT NULL`);
    await q.query(`CREATE INDEX trace_spans_conversation_idx ON trace_spans (conversation_id) WHERE conversation_id IS NOT NULL`);
    await q.query(`CREATE INDEX trace_spans_start_idx ON trace_spans (start_time)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE trace_spans`);
  }
}
