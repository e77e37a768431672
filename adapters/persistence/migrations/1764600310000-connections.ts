import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owners' connections (docs/connections.md): a named OpenAI-compatible (or other) endpoint with its
 * base URL, its key sealed (`sealed_key`, NULL without one), its extra headers as a map of sealed values,
 * and its models (discovered or typed, at most 1,000).
 */
export class Connections1764600310000 implements MigrationInterface {
  name = 'Connections1764600310000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE connections (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL,
        base_url text NOT NULL,
        sealed_key text,
        key_hint text,
        sealed_headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        models jsonb NOT NULL DEFAULT '[]'::jsonb,
        models_discovered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT connections_owner_name_key UNIQUE (owner_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE connections`);
  }
}
