import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users, their tokens and their applications. Everything a user owns cascades from `users`. */
export class Foundation1763780000000 implements MigrationInterface {
  name = 'Foundation1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        display_name text NOT NULL,
        role text NOT NULL DEFAULT 'developer' CHECK (role IN ('admin', 'developer', 'user')),
        password_hash text NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        family_id uuid NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`);
    await q.query(`CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`);
    await q.query(`
      CREATE TABLE password_reset_tokens (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE applications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        slug text NOT NULL,
        theme_id text,
        theme_customization jsonb NOT NULL DEFAULT '{}'::jsonb,
        allowed_origins jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX applications_slug_key ON applications (slug)`);
    await q.query(`CREATE INDEX applications_owner_idx ON applications (owner_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE applications`);
    await q.query(`DROP TABLE password_reset_tokens`);
    await q.query(`DROP TABLE refresh_tokens`);
    await q.query(`DROP TABLE users`);
  }
}
