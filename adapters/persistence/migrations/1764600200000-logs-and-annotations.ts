import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The application's logs and annotations (docs/logs.md).
 *
 * - `messages.metadata`: facts about how an answer came about that have no column of their own; an answer
 *   served from an annotation holds `{ "annotationId": "…" }` there; every answer holds who answered and each provider
 *   attempt of its turn (docs/connections.md, "Resilience").
 * - Indexes for the logs list: an application's conversations by last activity (the list's order and its time
 *   range), and a full-text index over message contents (the list's text search, `simple` dictionary so it
 *   works the same for every language and on PGlite).
 * - `annotations`: question/answer pairs an owner vouched for or corrected, per application, with the
 *   question's embedding for annotation replies.
 * - `annotation_settings`: whether an application answers close questions from its annotations, and how close.
 */
export class LogsAndAnnotations1764600200000 implements MigrationInterface {
  name = 'LogsAndAnnotations1764600200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN metadata jsonb`);
    await q.query(`CREATE INDEX conversations_activity_idx ON conversations (application_id, updated_at DESC, id DESC)`);
    await q.query(`CREATE INDEX messages_content_search_idx ON messages USING gin (to_tsvector('simple', content))`);
    await q.query(`
      CREATE TABLE annotations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        message_id uuid REFERENCES messages(id) ON DELETE SET NULL,
        kind text NOT NULL CHECK (kind IN ('good', 'corrected', 'manual')),
        question text NOT NULL,
        answer text NOT NULL,
        embedding real[],
        embedding_model text,
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        hit_count integer NOT NULL DEFAULT 0,
        last_hit_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX annotations_application_idx ON annotations (application_id, created_at DESC, id DESC)`);
    await q.query(`CREATE UNIQUE INDEX annotations_message_idx ON annotations (message_id) WHERE message_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE annotation_settings (
        application_id uuid PRIMARY KEY REFERENCES applications(id) ON DELETE CASCADE,
        replies_enabled boolean NOT NULL DEFAULT false,
        threshold real NOT NULL DEFAULT 0.9 CHECK (threshold > 0 AND threshold <= 1),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE annotation_settings`);
    await q.query(`DROP TABLE annotations`);
    await q.query(`DROP INDEX messages_content_search_idx`);
    await q.query(`DROP INDEX conversations_activity_idx`);
    await q.query(`ALTER TABLE messages DROP COLUMN metadata`);
  }
}
