import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The application studio (docs/studio.md): one draft per application, and its published versions, numbered
 * from 1 per application and never changed once stored (each holds the whole configuration as published).
 */
export class Studio1764500530000 implements MigrationInterface {
  name = 'Studio1764500530000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE studio_drafts (
        application_id uuid PRIMARY KEY REFERENCES applications(id) ON DELETE CASCADE,
        config jsonb NOT NULL,
        based_on_version integer,
        updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE studio_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        number integer NOT NULL CHECK (number >= 1),
        note text NOT NULL DEFAULT '',
        config jsonb NOT NULL,
        published_by uuid REFERENCES users(id) ON DELETE SET NULL,
        published_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT studio_versions_number_unique UNIQUE (application_id, number)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE studio_versions`);
    await q.query(`DROP TABLE studio_drafts`);
  }
}
