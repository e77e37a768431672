import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connections a team holds (docs/connections.md): `team_id` set, names unique within the team; a personal
 * connection (no team) keeps its name unique among its owner's personal ones.
 */
export class TeamConnections1764601100000 implements MigrationInterface {
  name = 'TeamConnections1764601100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connections ADD COLUMN team_id uuid REFERENCES teams(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE connections DROP CONSTRAINT connections_owner_name_key`);
    await q.query(`CREATE UNIQUE INDEX connections_owner_name_key ON connections (owner_id, name) WHERE team_id IS NULL`);
    await q.query(`CREATE UNIQUE INDEX connections_team_name_key ON connections (team_id, name) WHERE team_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM connections WHERE team_id IS NOT NULL`);
    await q.query(`DROP INDEX connections_team_name_key`);
    await q.query(`DROP INDEX connections_owner_name_key`);
    await q.query(`ALTER TABLE connections DROP COLUMN team_id`);
    await q.query(`ALTER TABLE connections ADD CONSTRAINT connections_owner_name_key UNIQUE (owner_id, name)`);
  }
}
