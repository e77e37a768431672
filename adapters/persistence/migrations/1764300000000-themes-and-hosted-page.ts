import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users' themes (the presets live in code) and the switch for an application's hosted chat page.
 * A theme keeps its overrides as given and the definition they resolved to when it was created.
 */
export class ThemesAndHostedPage1764300000000 implements MigrationInterface {
  name = 'ThemesAndHostedPage1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE themes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        extend text,
        overrides jsonb NOT NULL DEFAULT '{}'::jsonb,
        definition jsonb NOT NULL,
        published boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX themes_owner_idx ON themes (owner_id, created_at DESC)`);
    await q.query(`CREATE INDEX themes_published_idx ON themes (created_at DESC) WHERE published`);
    await q.query(`ALTER TABLE applications ADD COLUMN hosted_page_enabled boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE applications DROP COLUMN hosted_page_enabled`);
    await q.query(`DROP TABLE themes`);
  }
}
