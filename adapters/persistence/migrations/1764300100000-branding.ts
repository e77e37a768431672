import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One branding record per application (SPEC 2.11), the sections as JSON; it goes with the application. */
export class Branding1764300100000 implements MigrationInterface {
  name = 'Branding1764300100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE branding (
        application_id uuid PRIMARY KEY REFERENCES applications(id) ON DELETE CASCADE,
        settings jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE branding`);
  }
}
