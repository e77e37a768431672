import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The setup link of a fresh install (docs/auth.md, "First run"): one row at most, the digest of the one-time
 * token the start log prints, its expiry, and when it was used. The account created through it is the
 * platform's admin; once used, no start prints a link again.
 */
export class PlatformSetup1764500520451 implements MigrationInterface {
  name = 'PlatformSetup1764500520451';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform_setup (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        used_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform_setup`);
  }
}
