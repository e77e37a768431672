import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Analytics rollup: one row per application, UTC day, source, provider, model and key kind, with the
 * counts of the analytics events of that slice. The core API adds to it in batches (one statement per
 * flush, never one per request); conversations and their stats are read from `conversations` and
 * `messages` themselves. A partial index keeps the ratings of an application's messages cheap to read.
 */
export class AnalyticsRollup1764400400000 implements MigrationInterface {
  name = 'AnalyticsRollup1764400400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_daily (
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        day date NOT NULL,
        source text NOT NULL CHECK (source IN ('dashboard', 'api', 'widget')),
        provider text NOT NULL DEFAULT '',
        model text NOT NULL DEFAULT '',
        key_kind text NOT NULL DEFAULT 'none' CHECK (key_kind IN ('own', 'platform', 'none')),
        messages_sent bigint NOT NULL DEFAULT 0 CHECK (messages_sent >= 0),
        messages_received bigint NOT NULL DEFAULT 0 CHECK (messages_received >= 0),
        prompt_tokens bigint NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
        completion_tokens bigint NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
        errors bigint NOT NULL DEFAULT 0 CHECK (errors >= 0),
        api_calls bigint NOT NULL DEFAULT 0 CHECK (api_calls >= 0),
        widget_loads bigint NOT NULL DEFAULT 0 CHECK (widget_loads >= 0),
        PRIMARY KEY (application_id, day, source, provider, model, key_kind)
      )`);
    await q.query(`CREATE INDEX messages_rated_idx ON messages (conversation_id) INCLUDE (rating) WHERE rating IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX messages_rated_idx`);
    await q.query(`DROP TABLE analytics_daily`);
  }
}
