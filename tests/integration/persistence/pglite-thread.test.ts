import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGlitePool } from '../../../adapters/persistence/pglite/pglite-pool';
import { inThread, openPGlite, type StatementRunner } from '../../../adapters/persistence/pglite/pglite-statements';
import { PGliteThread } from '../../../adapters/persistence/pglite/pglite-thread';
import { openDatabase } from '../../../adapters/persistence/data-source';
import { thingsTable } from './things-table';

/**
 * The embedded database on its own worker thread answers exactly what it answers on this one: the same
 * rows and types, the same errors with their codes, transactions through the pool, and files that
 * outlive a close.
 */
describe('PGlite on its own thread', () => {
  const schema = thingsTable('int PRIMARY KEY');
  const insert = `INSERT INTO things (id, name, n, price, ok, meta, tags, embedding, raw, at)
                  VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::vector, $9, $10) RETURNING *`;
  const params = (id: number) => [id, `thing ${id}`, 42, '1.50', true, JSON.stringify({ deep: [1, 'x'] }), ['red', 'blue'], '[1,2,3]', Buffer.from([1, 2]), new Date('2026-03-04T05:06:07.089Z')];

  let thread: PGliteThread;
  let local: PGlite;
  let here: StatementRunner;

  // Both start from the run's migrated template (jest's global setup) instead of an initdb each; the test with the
  // data directory below and the one of the platform database's migrations run initdb as before.
  const template = process.env.PGLITE_TEST_TEMPLATE || undefined;

  beforeAll(async () => {
    thread = await PGliteThread.open({ template });
    local = await openPGlite(undefined, undefined, template);
    here = inThread(local);
    for (const runner of [thread, here]) await runner.run(schema);
  });
  afterAll(async () => {
    await thread.close();
    await local.close();
  });

  it('answers the rows, types, fields and counts the same database answers on this thread', async () => {
    for (const id of [1, 2]) {
      const [there, local] = [await thread.run(insert, params(id)), await here.run(insert, params(id))];
      expect(there).toEqual(local);
      expect(there.rows[0]).toMatchObject({ id, n: 42, price: '1.50', ok: true, meta: { deep: [1, 'x'] }, tags: ['red', 'blue'], embedding: '[1,2,3]' });
      expect((there.rows[0] as { at: unknown }).at).toEqual(new Date('2026-03-04T05:06:07.089Z'));
    }
    const select = `SELECT * FROM things WHERE id = ANY($1) ORDER BY id`;
    expect(await thread.run(select, [[1, 2]])).toEqual(await here.run(select, [[1, 2]]));
    expect((await thread.run(`UPDATE things SET n = n + $1`, [1])).rowCount).toBe(2);
  });

  it('fails a statement with the database error, its code and constraint, and keeps working after it', async () => {
    await expect(thread.run(insert, params(1))).rejects.toMatchObject({ code: '23505', constraint: 'things_pkey' });
    await expect(thread.run(insert, params(1))).rejects.toBeInstanceOf(Error);
    await expect(thread.run(`SELEC nonsense WHERE $1`, [1])).rejects.toMatchObject({ code: '42601', message: expect.stringContaining('syntax error') });
    expect((await thread.run(`SELECT count(*)::int AS n FROM things`)).rows).toEqual([{ n: 2 }]);
  });

  it('runs the statements of concurrent callers in order, and a pool transaction through it', async () => {
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => thread.run(`SELECT $1::int AS i`, [i])));
    expect(counts.map((r) => (r.rows[0] as { i: number }).i)).toEqual(Array.from({ length: 20 }, (_, i) => i));

    const pool = new PGlitePool(thread);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(insert, params(3));
      expect((await client.query(`SELECT count(*)::int AS n FROM things`)).rows).toEqual([{ n: 3 }]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await pool.query(`SELECT count(*)::int AS n FROM things`)).rows).toEqual([{ n: 2 }]);
  });

  it('answers what was sent before a close, refuses what comes after, and keeps its files across it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));
    try {
      const first = await PGliteThread.open({ dataDir });
      await first.run(`CREATE TABLE kept (v text)`);
      await first.run(`INSERT INTO kept VALUES ($1)`, ['still here']);
      const sentBefore = first.run(`SELECT v FROM kept`);
      const closing = first.close();
      await expect(first.run(`SELECT 1`)).rejects.toThrow('The embedded database is closed');
      expect((await sentBefore).rows).toEqual([{ v: 'still here' }]);
      await closing;
      await expect(first.run(`SELECT 1`)).rejects.toThrow('The embedded database is closed');
      await first.close(); // a second close is harmless

      const second = await PGliteThread.open({ dataDir });
      expect((await second.run(`SELECT v FROM kept`)).rows).toEqual([{ v: 'still here' }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('opens again after a close in a process run from the sources without SWC loaded (a crash once)', () => {
    // Plain ts-node (TypeScript's transpiler): the thread must not load SWC's native addon itself, which
    // took the whole process down when a second database thread started after the first had ended.
    const module = JSON.stringify(join(__dirname, '../../../adapters/persistence/pglite/pglite-thread.ts'));
    const script = `
      const { PGliteThread } = require(${module});
      (async () => {
        for (const i of [1, 2]) {
          const db = await PGliteThread.open({ template: process.env.PGLITE_TEST_TEMPLATE || undefined });
          console.log((await db.run('SELECT $1::int AS i', [i])).rows[0].i);
          await db.close();
        }
      })();`;
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: run.status, signal: run.signal, out: run.stdout.trim().split('\n') }).toEqual({ status: 0, signal: null, out: ['1', '2'] });
  });

  it('serves the platform database with PGLITE_THREAD on: migrations, then TypeORM statements and transactions', async () => {
    const database = await openDatabase({ pgliteThread: true });
    try {
      const [created] = (await database.dataSource.query(`INSERT INTO users (email, password_hash, display_name) VALUES ($1, $2, $3) RETURNING id`, [
        'thread@example.com',
        'x',
        'Thread',
      ])) as { id: string }[];
      await expect(
        database.dataSource.transaction(async (tx) => {
          await tx.query(`UPDATE users SET display_name = $1 WHERE id = $2`, ['Changed', created!.id]);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await database.dataSource.query(`SELECT display_name FROM users WHERE id = $1`, [created!.id])).toEqual([{ display_name: 'Thread' }]);
    } finally {
      await database.close();
    }
  });

  it('fails to open with the reason when the data directory cannot be used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, 'x');
    try {
      await expect(PGliteThread.open({ dataDir: file })).rejects.toBeInstanceOf(Error);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
