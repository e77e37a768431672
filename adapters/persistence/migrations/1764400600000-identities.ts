import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in with external identity providers: the identities linked to each user (GitHub, Google, a team's
 * SSO connection), and the short-lived single-use records of logins in progress (OAuth state with its PKCE
 * verifier and nonce, SAML request ids, one-time codes exchanged for tokens), stored under a hash of their key.
 */
export class Identities1764400600000 implements MigrationInterface {
  name = 'Identities1764400600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_identities (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('github', 'google', 'oidc', 'saml')),
        sso_config_id uuid,
        subject text NOT NULL,
        email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_login_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX user_identities_subject_key ON user_identities (provider, (COALESCE(sso_config_id::text, '')), subject)`);
    await q.query(`CREATE INDEX user_identities_user_idx ON user_identities (user_id)`);
    await q.query(`
      CREATE TABLE login_flows (
        key_hash text PRIMARY KEY,
        payload jsonb NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX login_flows_expiry_idx ON login_flows (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE login_flows`);
    await q.query(`DROP TABLE user_identities`);
  }
}
