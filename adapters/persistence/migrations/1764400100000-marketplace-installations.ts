import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The core API's side of the marketplace: which plugin installations came from it (item, version, paid,
 * since when license validation finds it unreachable), the update entries the daily check writes (SPEC
 * 2.10), and license validation answers per user and item, kept 5 minutes for every instance.
 */
export class MarketplaceInstallations1764400100000 implements MigrationInterface {
  name = 'MarketplaceInstallations1764400100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE marketplace_installations (
        installation_id uuid PRIMARY KEY REFERENCES plugin_installations(id) ON DELETE CASCADE,
        marketplace_plugin_id uuid NOT NULL,
        version text NOT NULL,
        is_paid boolean NOT NULL DEFAULT false,
        license_unreachable_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX marketplace_installations_item_idx ON marketplace_installations (marketplace_plugin_id)`);
    await q.query(`CREATE INDEX marketplace_installations_paid_idx ON marketplace_installations (installation_id) WHERE is_paid`);
    await q.query(`
      CREATE TABLE marketplace_plugin_updates (
        installation_id uuid PRIMARY KEY REFERENCES marketplace_installations(installation_id) ON DELETE CASCADE,
        marketplace_plugin_id uuid NOT NULL,
        current_version text NOT NULL,
        latest_version text NOT NULL,
        changelog text NOT NULL DEFAULT '',
        found_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE marketplace_license_checks (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        marketplace_plugin_id uuid NOT NULL,
        valid boolean NOT NULL,
        reason text,
        checked_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, marketplace_plugin_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE marketplace_license_checks`);
    await q.query(`DROP TABLE marketplace_plugin_updates`);
    await q.query(`DROP TABLE marketplace_installations`);
  }
}
