import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type Database } from '../../adapters/persistence/data-source';
import { pgliteThreadSetting } from '../../apps/shared/config';

export type DatabaseKind = 'pglite' | 'postgres';

/** The kinds this run can test: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DATABASE_KINDS: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

if (!process.env.TEST_DATABASE_URL && !process.env.__PG_SKIP_NOTED) {
  process.env.__PG_SKIP_NOTED = '1';
  process.stdout.write('note: TEST_DATABASE_URL is not set; PostgreSQL variants of the database tests are skipped (PGlite runs)\n');
}

/**
 * A fresh database: in-memory PGlite (on a thread of its own, as the platform runs it, unless PGLITE_THREAD=off,
 * loaded from the run's migrated template),
 * or a schema of its own on the test PostgreSQL, dropped on close.
 */
export async function openTestDatabase(kind: DatabaseKind = 'pglite'): Promise<Database> {
  // Started from the run's migrated template (jest's global setup) when there is one.
  if (kind === 'pglite') return openDatabase({ pgliteThread: pgliteThreadSetting(), pgliteTemplate: process.env.PGLITE_TEST_TEMPLATE || undefined });
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openDatabase({ databaseUrl: url, schema });
  return {
    ...db,
    async close() {
      await db.close();
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}
