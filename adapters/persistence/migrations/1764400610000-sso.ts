import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams' single sign-on connections (one per team, OIDC or SAML; the OIDC client secret sealed), the
 * identities they link (removed with the connection), and the SAML assertions already used (replay protection).
 */
export class Sso1764400610000 implements MigrationInterface {
  name = 'Sso1764400610000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sso_configurations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        protocol text NOT NULL CHECK (protocol IN ('oidc', 'saml')),
        enabled boolean NOT NULL DEFAULT true,
        enforced boolean NOT NULL DEFAULT false,
        oidc_issuer text,
        oidc_client_id text,
        oidc_client_secret_sealed text,
        oidc_scopes text,
        saml_entity_id text,
        saml_sso_url text,
        saml_certificate text,
        attribute_mapping jsonb NOT NULL,
        allowed_domains jsonb NOT NULL DEFAULT '[]'::jsonb,
        default_role text NOT NULL DEFAULT 'member' CHECK (default_role IN ('admin', 'member', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (protocol <> 'oidc' OR (oidc_issuer IS NOT NULL AND oidc_client_id IS NOT NULL AND oidc_client_secret_sealed IS NOT NULL)),
        CHECK (protocol <> 'saml' OR (saml_entity_id IS NOT NULL AND saml_sso_url IS NOT NULL AND saml_certificate IS NOT NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX sso_configurations_team_key ON sso_configurations (team_id)`);
    await q.query(`
      ALTER TABLE user_identities ADD CONSTRAINT user_identities_sso_config_fk
        FOREIGN KEY (sso_config_id) REFERENCES sso_configurations(id) ON DELETE CASCADE`);
    await q.query(`
      CREATE TABLE sso_used_assertions (
        id text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sso_used_assertions_expiry_idx ON sso_used_assertions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sso_used_assertions`);
    await q.query(`ALTER TABLE user_identities DROP CONSTRAINT user_identities_sso_config_fk`);
    await q.query(`DROP TABLE sso_configurations`);
  }
}
