import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys of the public API: only the SHA-256 digest of a key is stored, with its display prefix and
 * last four characters. A key scoped to an application goes with it; all of a user's keys go with the user.
 */
export class ApiKeys1763780500000 implements MigrationInterface {
  name = 'ApiKeys1763780500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        application_id uuid REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        key_hash text NOT NULL,
        key_prefix text NOT NULL,
        key_hint text NOT NULL,
        rate_limit integer NOT NULL CHECK (rate_limit BETWEEN 10 AND 10000),
        request_count bigint NOT NULL DEFAULT 0,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash)`);
    await q.query(`CREATE INDEX api_keys_owner_idx ON api_keys (owner_id, created_at DESC)`);
    await q.query(`CREATE INDEX api_keys_application_idx ON api_keys (application_id) WHERE application_id IS NOT NULL`);
    // A deleted key leaves its conversations to the dashboard; no key can read them back any more.
    await q.query(`CREATE INDEX conversations_api_key_idx ON conversations (api_key_id) WHERE api_key_id IS NOT NULL`);
    await q.query(`
      ALTER TABLE conversations ADD CONSTRAINT conversations_api_key_fk
        FOREIGN KEY (api_key_id) REFERENCES api_keys(id) ON DELETE SET NULL`);
    // CORS preflights ask whether any application lists an origin.
    await q.query(`CREATE INDEX applications_allowed_origins_idx ON applications USING gin (allowed_origins jsonb_path_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX applications_allowed_origins_idx`);
    await q.query(`ALTER TABLE conversations DROP CONSTRAINT conversations_api_key_fk`);
    await q.query(`DROP INDEX conversations_api_key_idx`);
    await q.query(`DROP TABLE api_keys`);
  }
}
