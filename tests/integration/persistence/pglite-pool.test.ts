import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGlitePool } from '../../../adapters/persistence/pglite/pglite-pool';
import { inThread } from '../../../adapters/persistence/pglite/pglite-statements';
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
