import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A holder's licenses, newest first (`GET /marketplace/licenses`), read by index instead of scanning every license. */
export class MarketplaceLicensesByHolder1764500490417 implements MigrationInterface {
  name = 'MarketplaceLicensesByHolder1764500490417';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX marketplace_licenses_holder_idx ON marketplace_licenses (user_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS marketplace_licenses_holder_idx`);
  }
}
