import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data exports (a background job writes each to a file under DATA_DIR; the row says where and until
 * when it may be downloaded) and the client ids of imported applications, which make a re-import skip
 * what it imported before. Both go with their user; an import record goes with its application.
 */
export class DataExport1764400500000 implements MigrationInterface {
  name = 'DataExport1764400500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE data_exports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        resources text NOT NULL CHECK (resources IN ('all', 'applications', 'conversations', 'analytics')),
        format text NOT NULL CHECK (format IN ('json', 'csv')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'ready', 'failed')),
        file_name text,
        byte_size bigint,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX data_exports_owner_idx ON data_exports (owner_id, created_at DESC)`);
    await q.query(`CREATE INDEX data_exports_expires_idx ON data_exports (expires_at)`);
    await q.query(`
      CREATE TABLE data_imports (
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        client_id text NOT NULL,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner_id, client_id)
      )`);
    await q.query(`CREATE INDEX data_imports_application_idx ON data_imports (application_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE data_imports`);
    await q.query(`DROP TABLE data_exports`);
  }
}
