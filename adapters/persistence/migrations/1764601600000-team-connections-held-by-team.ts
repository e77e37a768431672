import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A team's connection belongs to the team, not to the member who added it (docs/connections.md): its
 * `owner_id` is NULL (only a personal connection has an owner, whose account deletion takes it along) and
 * `added_by` remembers who added it, cleared when that account is deleted. So a member's leaving the
 * platform no longer takes the team's connections with it.
 */
export class TeamConnectionsHeldByTeam1764601600000 implements MigrationInterface {
  name = 'TeamConnectionsHeldByTeam1764601600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connections ADD COLUMN added_by uuid REFERENCES users(id) ON DELETE SET NULL`);
    await q.query(`UPDATE connections SET added_by = owner_id`);
    await q.query(`ALTER TABLE connections ALTER COLUMN owner_id DROP NOT NULL`);
    await q.query(`UPDATE connections SET owner_id = NULL WHERE team_id IS NOT NULL`);
    await q.query(`ALTER TABLE connections ADD CONSTRAINT connections_held_check CHECK ((team_id IS NULL) = (owner_id IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connections DROP CONSTRAINT connections_held_check`);
    // A team's connection whose adder is gone has no one to go back to: it is removed, as before this migration.
    await q.query(`DELETE FROM connections WHERE team_id IS NOT NULL AND added_by IS NULL`);
    await q.query(`UPDATE connections SET owner_id = added_by WHERE team_id IS NOT NULL`);
    await q.query(`ALTER TABLE connections ALTER COLUMN owner_id SET NOT NULL`);
    await q.query(`ALTER TABLE connections DROP COLUMN added_by`);
  }
}
