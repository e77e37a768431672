import { Client, type ClientBase } from 'pg';

/**
 * The advisory lock every migrator of a PostgreSQL database takes: services starting together against a fresh
 * database (three containers of the compose file, replicas, `npm run migrate` beside a running service) would
 * otherwise each create the same tables at once, and all but one fail (`relation ... already exists`,
 * `duplicate key value violates unique constraint "pg_type_typname_nsp_index"`).
 *
 * One key for the whole database, not one per schema: a migration may create an extension, which is database-wide.
 * Advisory locks are scoped to the database, so other databases on the same server never wait for it. The value is
 * an arbitrary constant of this platform ("aiplatfm" as ASCII); it only has to differ from other advisory locks an
 * operator might take in the same database.
 */
export const MIGRATION_LOCK_KEY = '7019265105027425901';

/**
 * Runs `work` while holding the migration lock, taken on a connection of its own (a session-level advisory lock;
 * `work` may use that session for its own statements). The others wait their turn, then find the schema up to date
 * and apply nothing. The lock goes with the session, so a migrator that dies releases it. There is no timeout: a
 * large migration may take minutes, and a service that gave up waiting could not start anyway.
 */
export async function withMigrationLock<T>(databaseUrl: string, work: (session: ClientBase) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'ai-platform migrations lock' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
