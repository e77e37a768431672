import { openDatabase, type Database } from '../../../adapters/persistence/data-source';
import { PGliteUpkeep } from '../../../adapters/persistence/pglite/pglite-upkeep';
import { pgliteThreadSetting } from '../../../apps/shared/config';

/**
 * PGlite has no autovacuum: without the upkeep, a statement prepared while its table was empty keeps
 * a plan that reads the whole table however large it grows.
 */
describe('PGlite upkeep', () => {
  let db: Database;
  let upkeep: PGliteUpkeep;
  const plan = async () => ((await db.dataSource.query(`EXPLAIN EXECUTE pick(ARRAY[7, 9])`)) as Array<{ 'QUERY PLAN': string }>).map((r) => r['QUERY PLAN']).join('\n');

  beforeAll(async () => {
    db = await openDatabase({ pgliteThread: pgliteThreadSetting() });
    upkeep = new PGliteUpkeep(db.dataSource);
  });
  afterAll(() => db.close());

  it('analyzes the tables that grew, so that statements prepared on them are planned again', async () => {
    await db.dataSource.query(`CREATE TABLE items (id integer PRIMARY KEY, label text NOT NULL)`);
    // The embedded database always runs the generic plans of its prepared statements (openPGlite).
    expect(await db.dataSource.query(`SHOW plan_cache_mode`)).toEqual([{ plan_cache_mode: 'force_generic_plan' }]);
    await db.dataSource.query(`PREPARE pick(int[]) AS SELECT id, label FROM items WHERE id IN (SELECT unnest($1::int[]))`);
    expect(await plan()).toContain('Seq Scan on items');
    expect((await upkeep.runOnce()).analyzed).not.toContain('public.items'); // nothing to see yet

    await db.dataSource.query(`INSERT INTO items SELECT i, 'item ' || i FROM generate_series(1, 20000) AS i`);
    expect(await plan()).toContain('Seq Scan on items'); // the plan made on the empty table
    const round = await upkeep.runOnce();
    expect(round.analyzed).toContain('public.items');
    expect(round.vacuumed).toEqual([]);
    expect(await plan()).toMatch(/Index (Only )?Scan using items_pkey/);
    const picked: Array<{ id: number; label: string }> = await db.dataSource.query(`EXECUTE pick(ARRAY[7, 9])`);
    expect(picked.sort((a, b) => a.id - b.id)).toEqual([{ id: 7, label: 'item 7' }, { id: 9, label: 'item 9' }]);

    // A table analyzed since it last grew is left alone.
    expect((await upkeep.runOnce()).analyzed).not.toContain('public.items');
    await db.dataSource.query(`DEALLOCATE pick`);
  });

  it('analyzes a small table once it holds rows, however few, and then leaves it until it grows', async () => {
    await db.dataSource.query(`CREATE TABLE few (id integer PRIMARY KEY)`);
    expect((await upkeep.runOnce()).analyzed).not.toContain('public.few'); // empty: nothing to learn
    await db.dataSource.query(`INSERT INTO few SELECT generate_series(1, 20)`);
    expect((await upkeep.runOnce()).analyzed).toContain('public.few');
    expect((await db.dataSource.query(`SELECT reltuples FROM pg_class WHERE relname = 'few'`))[0].reltuples).toBe(20);
    await db.dataSource.query(`INSERT INTO few VALUES (21)`);
    expect((await upkeep.runOnce()).analyzed).not.toContain('public.few');
  });

  it('runs on its own every interval until stopped', async () => {
    await db.dataSource.query(`CREATE TABLE logs (id integer PRIMARY KEY)`);
    await db.dataSource.query(`INSERT INTO logs SELECT generate_series(1, 20000)`);
    const analyzed = async () => (await db.dataSource.query(`SELECT reltuples FROM pg_class WHERE relname = 'logs'`))[0].reltuples as number;
    expect(await analyzed()).toBeLessThan(0); // never analyzed
    const ticking = new PGliteUpkeep(db.dataSource, 20);
    ticking.start();
    const deadline = Date.now() + 10_000;
    while ((await analyzed()) < 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await ticking.stop();
    expect(await analyzed()).toBe(20000);
  });
});
