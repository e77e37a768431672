import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The application an audit record is about (its configuration, keys, integrations, plugins), so an application's
 * history is one filter (`GET /api/audit?application=`), newest first by index. Null for records about no
 * application (logins, a user's provider keys, a team). No foreign key: records outlive the application.
 */
export class AuditApplication1764500501731 implements MigrationInterface {
  name = 'AuditApplication1764500501731';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_records ADD COLUMN application_id uuid`);
    await q.query(`CREATE INDEX audit_records_application_idx ON audit_records (application_id, at DESC) WHERE application_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS audit_records_application_idx`);
    await q.query(`ALTER TABLE audit_records DROP COLUMN application_id`);
  }
}
