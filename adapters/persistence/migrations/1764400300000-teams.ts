import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams: members with one role each (exactly one owner per team, enforced by a partial unique index),
 * single-use invitations stored as digests, the team's own provider keys (sealed), and the application's
 * team. A team application's `owner_id` is the team owner's, so plan limits and quotas are the owner's.
 */
export class Teams1764400300000 implements MigrationInterface {
  name = 'Teams1764400300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE teams (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        slug text NOT NULL,
        description text NOT NULL DEFAULT '',
        default_provider text CHECK (default_provider IN ('provider_a', 'provider_b', 'provider_c', 'provider_d')),
        shared_provider_keys boolean NOT NULL DEFAULT false,
        members_may_invite boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX teams_slug_key ON teams (slug)`);
    await q.query(`
      CREATE TABLE team_members (
        team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
        joined_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, user_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX team_members_one_owner ON team_members (team_id) WHERE role = 'owner'`);
    await q.query(`CREATE INDEX team_members_user_idx ON team_members (user_id)`);
    await q.query(`
      CREATE TABLE team_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
        token_hash text NOT NULL,
        invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX team_invitations_token_key ON team_invitations (token_hash)`);
    await q.query(`CREATE INDEX team_invitations_team_idx ON team_invitations (team_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE team_provider_keys (
        team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('provider_a', 'provider_b', 'provider_c', 'provider_d')),
        sealed_key text NOT NULL,
        key_hint text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, provider)
      )`);
    await q.query(`ALTER TABLE applications ADD COLUMN team_id uuid REFERENCES teams(id) ON DELETE RESTRICT`);
    await q.query(`CREATE INDEX applications_team_idx ON applications (team_id, created_at) WHERE team_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX applications_team_idx`);
    await q.query(`ALTER TABLE applications DROP COLUMN team_id`);
    await q.query(`DROP TABLE team_provider_keys`);
    await q.query(`DROP TABLE team_invitations`);
    await q.query(`DROP TABLE team_members`);
    await q.query(`DROP TABLE teams`);
  }
}
