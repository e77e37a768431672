import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGlitePool } from '../../../adapters/persistence/pglite/pglite-pool';
import { inThread, type StatementRunner } from '../../../adapters/persistence/pglite/pglite-statements';
import { thingsTable } from './things-table';

/**
 * The PGlite pool runs statements with parameters as named prepared statements (parsed and described
 * once). What they answer must be exactly what `PGlite.query` answers.
 */
describe('PGlite pool: prepared statements', () => {
  let db: PGlite;
  let pool: PGlitePool;

  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    await db.exec(thingsTable('uuid PRIMARY KEY DEFAULT gen_random_uuid()'));
    pool = new PGlitePool(inThread(db));
  });
  afterAll(() => db.close());

  it('answers the rows, types and counts PGlite.query answers, on first and later runs', async () => {
    const insert = `INSERT INTO things (name, n, price, ok, meta, tags, embedding, raw, at)
                    VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::vector, $8, $9) RETURNING *`;
    const at = new Date('2026-03-04T05:06:07.089Z');
    for (const name of ['a', 'b']) {
      const params = [name, 42, '1.50', true, JSON.stringify({ deep: [1, 'x'] }), ['red', 'blue'], '[1,2,3]', Buffer.from([1, 2]), at];
      const result = await pool.query(insert, params);
      expect(result.rowCount).toBe(1);
      expect(result.rows[0]).toMatchObject({ name, n: 42, price: '1.50', ok: true, meta: { deep: [1, 'x'] }, tags: ['red', 'blue'], embedding: '[1,2,3]', at });
    }
    const select = `SELECT * FROM things WHERE name = ANY($1) ORDER BY name`;
    const viaPool = await pool.query(select, [['a', 'b']]);
    const viaQuery = await db.query(select, [['a', 'b']]);
    expect(viaPool.rows).toEqual(viaQuery.rows);
    expect(viaPool.fields).toEqual(viaQuery.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })));
  });

  it('passes nulls, and counts the rows an UPDATE and a DELETE touched', async () => {
    await pool.query(`INSERT INTO things (name, price) VALUES ($1, $2)`, ['c', null]);
    expect((await pool.query(`SELECT price FROM things WHERE name = $1`, ['c'])).rows).toEqual([{ price: null }]);
    expect((await pool.query(`UPDATE things SET n = n + $1 WHERE name <> $2`, [1, 'zzz'])).rowCount).toBe(3);
    expect((await pool.query(`DELETE FROM things WHERE name = $1`, ['c'])).rowCount).toBe(1);
  });

  it('fails a statement with the database error and its code, and keeps working after it', async () => {
    const insert = `INSERT INTO things (name) VALUES ($1)`;
    await expect(pool.query(insert, ['a'])).rejects.toMatchObject({ code: '23505' });
    await expect(pool.query(`SELEC nonsense WHERE $1`, [1])).rejects.toMatchObject({ code: '42601' });
    await expect(pool.query(`SELEC nonsense WHERE $1`, [1])).rejects.toMatchObject({ code: '42601' });
    expect((await pool.query(insert, ['d'])).rowCount).toBe(1);
  });

  it('runs inside a transaction taken from the pool, and a rollback undoes it', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO things (name) VALUES ($1)`, ['in-tx']);
      expect((await client.query(`SELECT count(*)::int AS n FROM things WHERE name = $1`, ['in-tx'])).rows).toEqual([{ n: 1 }]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await pool.query(`SELECT count(*)::int AS n FROM things WHERE name = $1`, ['in-tx'])).rows).toEqual([{ n: 0 }]);
  });
});

/**
 * Shared (the database on its own thread), the one session takes statements outside a transaction without
 * their waiting for one another, and a transaction has it to itself from BEGIN to COMMIT or ROLLBACK. Not
 * shared, a client holds it from its first statement until released.
 */
describe('PGlite pool: the one session, shared or held', () => {
  let db: PGlite;
  let pool: PGlitePool;
  let held: PGlitePool;
  /** What the runner was asked to run, in order, and how many statements were in flight at most. */
  let sent: string[];
  let inFlight: number;
  let mostInFlight: number;

  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    await db.exec(thingsTable('int PRIMARY KEY'));
    const runner = inThread(db);
    const watched: StatementRunner = {
      run(sql, params) {
        sent.push(sql);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        return runner.run(sql, params).finally(() => inFlight--);
      },
    };
    pool = new PGlitePool(watched, { shareSession: true });
    held = new PGlitePool(watched);
  });
  beforeEach(async () => {
    await db.exec('DELETE FROM things');
    sent = [];
    inFlight = 0;
    mostInFlight = 0;
  });
  afterAll(() => db.close());

  const countRows = `SELECT count(*)::int AS n FROM things`;
  const insert = `INSERT INTO things (id, name) VALUES ($1, $2)`;

  it('sends statements outside a transaction at once, each answered in the order sent', async () => {
    const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
    const answers = await Promise.all(clients.map((client, i) => client.query(`SELECT $1::int AS i`, [i])));
    clients.forEach((client) => client.release());
    expect(answers.map((r) => (r.rows[0] as { i: number }).i)).toEqual([...Array(10).keys()]);
    expect(mostInFlight).toBe(10);
  });

  it("holds other clients' statements while a transaction is open, so a rollback undoes only its own", async () => {
    const a = await pool.connect();
    const b = await pool.connect();
    await a.query('BEGIN');
    await a.query(insert, [1, 'a-in-tx']);
    const bInsert = b.query(insert, [2, 'b-outside']);
    const bCount = pool.query(countRows);
    await a.query(`SELECT 1`);
    expect(sent.filter((sql) => sql === insert)).toHaveLength(1);
    expect(sent).not.toContain(countRows);
    await a.query('ROLLBACK');
    await bInsert;
    expect((await bCount).rows).toEqual([{ n: 1 }]);
    a.release();
    b.release();
    expect((await pool.query(`SELECT name FROM things`)).rows).toEqual([{ name: 'b-outside' }]);
  });

  it('runs concurrent transactions one after the other, each whole', async () => {
    const run = async (id: number) => {
      const client = await pool.connect();
      try {
        await client.query('START TRANSACTION');
        await client.query(insert, [id, `t${id}`]);
        const seen = ((await client.query(countRows)).rows[0] as { n: number }).n;
        await client.query('COMMIT');
        return seen;
      } finally {
        client.release();
      }
    };
    // Each saw the rows of those committed before it and its own, none half-done.
    expect((await Promise.all([1, 2, 3, 4].map(run))).sort()).toEqual([1, 2, 3, 4]);
    expect((await pool.query(countRows)).rows).toEqual([{ n: 4 }]);
  });

  it('keeps the session through a savepoint rolled back, until the transaction ends', async () => {
    const a = await pool.connect();
    await a.query('BEGIN');
    await a.query('SAVEPOINT s1');
    await a.query(insert, [1, 'undone']);
    await a.query('ROLLBACK TO SAVEPOINT s1');
    const outside = pool.query(insert, [2, 'outside']);
    await a.query(insert, [3, 'kept']);
    expect(sent.filter((sql) => sql === insert)).toHaveLength(2);
    await a.query('COMMIT');
    await outside;
    a.release();
    expect((await pool.query(`SELECT name FROM things ORDER BY id`)).rows).toEqual([{ name: 'outside' }, { name: 'kept' }]);
  });

  it('not shared, lets a client hold the session until released, then serves the others in order', async () => {
    const a = await held.connect();
    await a.query(insert, [1, 'first']);
    const others = [2, 3].map((id) => held.query(insert, [id, `then-${id}`]));
    await a.query(`UPDATE things SET n = 1 WHERE id = 1`);
    expect(sent.filter((sql) => sql === insert)).toHaveLength(1);
    a.release();
    await Promise.all(others);
    expect((await held.query(`SELECT id FROM things ORDER BY at, id`)).rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(mostInFlight).toBe(1);
  });

  it('rolls back a transaction whose client is released inside it, and frees the session', async () => {
    const a = await pool.connect();
    await a.query('BEGIN');
    await a.query(insert, [1, 'abandoned']);
    const waiting = pool.query(insert, [2, 'after']);
    a.release();
    await waiting;
    expect((await pool.query(`SELECT name FROM things`)).rows).toEqual([{ name: 'after' }]);
  });
});

