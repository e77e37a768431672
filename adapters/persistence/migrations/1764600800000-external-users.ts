import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The accounts of an embedding program's own users (docs/library.md, external users): one platform account per
 * (issuer, external id), made on first use; deleting the account deletes the mapping.
 */
export class ExternalUsers1764600800000 implements MigrationInterface {
  name = 'ExternalUsers1764600800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE external_users (
        issuer text NOT NULL,
        external_id text NOT NULL,
        user_id uuid NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, external_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE external_users`);
  }
}
