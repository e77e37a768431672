import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Token reservations with an owner (issue 31): each reservation of platform tokens is a row naming the
 * process that holds it, and each process keeps a lease it renews while it runs. A reservation whose
 * holder's lease has run out (the process was killed) is given back by any instance's sweep, so a crash
 * cannot keep a plan's tokens reserved for ever. `usage_counters.tokens_reserved` stays the sum the
 * quota checks read.
 */
export class UsageHolds1764400831000 implements MigrationInterface {
  name = 'UsageHolds1764400831000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_holders (
        holder uuid PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE usage_holds (
        id uuid PRIMARY KEY,
        holder uuid NOT NULL,
        user_id uuid NOT NULL,
        period_start timestamptz NOT NULL,
        tokens bigint NOT NULL CHECK (tokens > 0),
        held_at timestamptz NOT NULL,
        FOREIGN KEY (user_id, period_start) REFERENCES usage_counters (user_id, period_start) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX usage_holds_holder_idx ON usage_holds (holder)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE usage_holds`);
    await q.query(`DROP TABLE usage_holders`);
  }
}
