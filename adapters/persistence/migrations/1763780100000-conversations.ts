import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Conversations of an application and their messages, with usage and latency per answer. */
export class Conversations1763780100000 implements MigrationInterface {
  name = 'Conversations1763780100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE conversations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        title text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
        source text NOT NULL DEFAULT 'dashboard' CHECK (source IN ('dashboard', 'api', 'widget')),
        api_key_id uuid,
        config_version_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX conversations_application_idx ON conversations (application_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        conversation_id uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        seq bigserial NOT NULL,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        status text NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'interrupted', 'failed')),
        provider text,
        model text,
        prompt_tokens integer,
        completion_tokens integer,
        total_tokens integer,
        latency_ms integer,
        error text,
        config_version_id uuid,
        sources jsonb,
        rating smallint CHECK (rating BETWEEN 1 AND 5),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX messages_conversation_idx ON messages (conversation_id, seq)`);
    await q.query(`CREATE INDEX messages_config_version_idx ON messages (config_version_id) WHERE config_version_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE messages`);
    await q.query(`DROP TABLE conversations`);
  }
}
