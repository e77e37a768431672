import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { openDatabase, type Database } from '../../../adapters/persistence/data-source';
import { MIGRATION_LOCK_KEY } from '../../../adapters/persistence/migration-lock';
import { MIGRATIONS } from '../../../adapters/persistence/migrations';

const SERVER_URL = process.env.TEST_DATABASE_URL;
const ROOT = join(__dirname, '..', '..', '..');

/** A database of its own on the test server, created empty and dropped afterwards (a schema would not do: a fresh install starts from nothing). */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mig_race_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: SERVER_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The schema is there once: every migration recorded exactly once, and the tables they create exist. */
async function expectCompleteSchemaOnce(url: string): Promise<void> {
  const applied = await query<{ name: string; n: string }>(url, `SELECT name, count(*) AS n FROM migrations GROUP BY name ORDER BY name`);
  expect(applied).toHaveLength(MIGRATIONS.length);
  expect(applied.every((row) => Number(row.n) === 1)).toBe(true);
  expect(applied.map((row) => row.name).sort()).toEqual(MIGRATIONS.map((M) => M.name).sort());
  const tables = (await query<{ table_name: string }>(url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)).map((r) => r.table_name);
  expect(tables).toEqual(expect.arrayContaining(['users', 'applications', 'conversations', 'messages', 'model_configs', 'provider_keys', 'knowledge_chunks']));
}

(SERVER_URL ? describe : describe.skip)('migrations on PostgreSQL take an advisory lock', () => {
  it('three `npm run migrate` processes started together on a fresh database all succeed, and the schema is there once', async () => {
    const db = await freshDatabase();
    const dataDirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'migrate-race-')));
    try {
      const migrate = (dataDir: string) =>
        promisify(execFile)(process.execPath, [join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--swc', 'apps/cli/migrate.main.ts'], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, REDIS_URL: '' },
        }).then(
          ({ stdout }) => ({ code: 0, output: stdout }),
          (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
        );
      const results = await Promise.all(dataDirs.map(migrate));
      for (const result of results) {
        expect(result).toEqual({ code: 0, output: `database up to date (postgres): ${MIGRATIONS.length} migrations applied\n` });
      }
      await expectCompleteSchemaOnce(db.url);
    } finally {
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
      await db.drop();
    }
  }, 120_000);

  it('three services opening a fresh database at the same moment all succeed (separate connections, one process)', async () => {
    const db = await freshDatabase();
    const opened: Database[] = [];
    try {
      const results = await Promise.allSettled([0, 1, 2].map(() => openDatabase({ databaseUrl: db.url })));
      for (const result of results) if (result.status === 'fulfilled') opened.push(result.value);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      await expectCompleteSchemaOnce(db.url);
      // Each one works on the schema it found.
      for (const database of opened) expect(await database.dataSource.query(`SELECT count(*)::int AS n FROM users`)).toEqual([{ n: 0 }]);
    } finally {
      for (const database of opened) await database.close();
      await db.drop();
    }
  }, 60_000);

  it('a migrator waits while another holds the lock, then finds the work done or does it', async () => {
    const db = await freshDatabase();
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    let opened: Database | undefined;
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      let settled = false;
      const opening = openDatabase({ databaseUrl: db.url }).finally(() => (settled = true));
      // Wait until PostgreSQL shows the migrator queued behind the lock.
      const waiting = async () =>
        (await query<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`))[0].n;
      while ((await waiting()) === 0) await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false);
      expect(await query(db.url, `SELECT to_regclass('public.migrations') AS t`)).toEqual([{ t: null }]);

      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      opened = await opening;
      await expectCompleteSchemaOnce(db.url);
      // The lock is released once the migrations are done: nothing holds it any more.
      expect(await query(db.url, `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).toEqual([{ n: 0 }]);
    } finally {
      await opened?.close();
      await holder.end();
      await db.drop();
    }
  }, 60_000);
});
