import { randomUUID } from 'node:crypto';
import { ExactScanVectorIndex } from '../../../adapters/persistence/knowledge/exact-scan.vector-index';
import { InMemoryVectorIndex } from '../../../adapters/persistence/knowledge/in-memory.vector-index';
import { hasPgvectorColumn, PgvectorVectorIndex } from '../../../adapters/persistence/knowledge/pgvector.vector-index';
import { topKBySimilarity } from '../../../core/knowledge/domain/vector-math';
import type { IndexedChunk, VectorIndex } from '../../../core/knowledge/ports/vector-index.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { aDocumentRow, anApplicationRow, randomUnitVector, seeded } from './fixtures';

interface Subject {
  index: VectorIndex;
  anApplication(): Promise<string>;
  aDocument(applicationId: string): Promise<string>;
  close(): Promise<void>;
}

type Variant = [string, () => Promise<Subject>];

const inMemory: Variant = [
  'in-memory',
  async () => ({ index: new InMemoryVectorIndex(), anApplication: async () => randomUUID(), aDocument: async () => randomUUID(), close: async () => undefined }),
];

const onDatabase = (kind: (typeof DATABASE_KINDS)[number], strategy: 'exact' | 'pgvector' | 'pgvector-hnsw-only'): Variant => [
  `${strategy} on ${kind}`,
  async () => {
    const db = await openTestDatabase(kind);
    const ds = db.dataSource;
    if (strategy !== 'exact' && !(await hasPgvectorColumn(ds))) throw new Error('PGlite should have pgvector installed by the migration');
    const index =
      strategy === 'exact'
        ? new ExactScanVectorIndex(ds)
        : // Small sets and small documents are searched exactly by default; `exactBelow: 0, smallBelow: 0` makes every query walk the HNSW index.
          await PgvectorVectorIndex.open(ds, strategy === 'pgvector-hnsw-only' ? { exactBelow: 0, smallBelow: 0 } : {});
    return {
      index,
      anApplication: async () => (await anApplicationRow(ds)).applicationId,
      aDocument: (applicationId) => aDocumentRow(ds, applicationId),
      close: () => db.close(),
    };
  },
];

const variants: Variant[] = [
  inMemory,
  ...DATABASE_KINDS.map((kind) => onDatabase(kind, 'exact')),
  // pgvector is in PGlite; the test PostgreSQL server has no such extension.
  onDatabase('pglite', 'pgvector'),
  onDatabase('pglite', 'pgvector-hnsw-only'),
];

const SPACE = 'local:local-hash-384';
const chunk = (chunkIndex: number, vector: number[], content = `chunk ${chunkIndex}`): IndexedChunk => ({ chunkIndex, content, tokenCount: Math.ceil(content.length / 4), vector });

describe.each(variants)('VectorIndex contract (%s)', (_name, open) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(() => subject.close());

  it('returns the closest chunks first, scored by cosine similarity', async () => {
    const random = seeded(1);
    const applicationId = await subject.anApplication();
    const documentId = await subject.aDocument(applicationId);
    const chunks = Array.from({ length: 40 }, (_, i) => chunk(i, randomUnitVector(random, 384)));
    await subject.index.add({ documentId, applicationId, space: SPACE }, chunks);
    const query = randomUnitVector(random, 384);

    const hits = await subject.index.search({ applicationId, space: SPACE, vector: query, documentIds: [documentId], limit: 5 });

    const expected = topKBySimilarity(query, chunks.map((c) => ({ id: c.chunkIndex, vector: c.vector })), 5);
    expect(hits.map((h) => h.chunkIndex)).toEqual(expected.map((e) => e.id));
    hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 4));
    expect(hits[0]).toMatchObject({ documentId, content: `chunk ${expected[0]!.id}`, tokenCount: expect.any(Number) });
  });

  it('finds a stored vector itself with a score of 1', async () => {
    const random = seeded(2);
    const applicationId = await subject.anApplication();
    const documentId = await subject.aDocument(applicationId);
    const chunks = Array.from({ length: 10 }, (_, i) => chunk(i, randomUnitVector(random, 384)));
    await subject.index.add({ documentId, applicationId, space: SPACE }, chunks);
    const [hit] = await subject.index.search({ applicationId, space: SPACE, vector: chunks[7]!.vector, documentIds: [documentId], limit: 1 });
    expect(hit!.chunkIndex).toBe(7);
    expect(hit!.score).toBeCloseTo(1, 4);
  });

  it('searches only the given application, embedding space and documents', async () => {
    const random = seeded(3);
    const vector = randomUnitVector(random, 384);
    const mine = await subject.anApplication();
    const other = await subject.anApplication();
    const readyDoc = await subject.aDocument(mine);
    const unlistedDoc = await subject.aDocument(mine);
    const otherModelDoc = await subject.aDocument(mine);
    const otherAppDoc = await subject.aDocument(other);
    await subject.index.add({ documentId: readyDoc, applicationId: mine, space: SPACE }, [chunk(0, randomUnitVector(random, 384), 'mine')]);
    await subject.index.add({ documentId: unlistedDoc, applicationId: mine, space: SPACE }, [chunk(0, vector, 'not listed')]);
    await subject.index.add({ documentId: otherModelDoc, applicationId: mine, space: 'provider_a:text-embedding-3-small' }, [chunk(0, vector, 'other model')]);
    await subject.index.add({ documentId: otherAppDoc, applicationId: other, space: SPACE }, [chunk(0, vector, 'other app')]);

    const hits = await subject.index.search({ applicationId: mine, space: SPACE, vector, documentIds: [readyDoc, otherModelDoc, otherAppDoc], limit: 10 });

    expect(hits.map((h) => h.content)).toEqual(['mine']);
  });

  it('keeps spaces of different dimensions apart', async () => {
    const random = seeded(4);
    const applicationId = await subject.anApplication();
    const small = await subject.aDocument(applicationId);
    const large = await subject.aDocument(applicationId);
    await subject.index.add({ documentId: small, applicationId, space: SPACE }, [chunk(0, randomUnitVector(random, 384), 'small')]);
    const wide = randomUnitVector(random, 768);
    await subject.index.add({ documentId: large, applicationId, space: 'provider_c:text-embedding-004' }, [chunk(0, wide, 'wide')]);
    const odd = randomUnitVector(random, 100);
    await subject.index.add({ documentId: large, applicationId, space: 'provider_d:odd-model' }, [chunk(1, odd, 'odd')]);

    const wideHits = await subject.index.search({ applicationId, space: 'provider_c:text-embedding-004', vector: wide, documentIds: [small, large], limit: 3 });
    const oddHits = await subject.index.search({ applicationId, space: 'provider_d:odd-model', vector: odd, documentIds: [small, large], limit: 3 });

    expect(wideHits.map((h) => [h.content, Number(h.score.toFixed(3))])).toEqual([['wide', 1]]);
    expect(oddHits.map((h) => [h.content, Number(h.score.toFixed(3))])).toEqual([['odd', 1]]);
  });

  it('honours the limit and drops hits below the minimum score', async () => {
    const random = seeded(5);
    const applicationId = await subject.anApplication();
    const documentId = await subject.aDocument(applicationId);
    const query = randomUnitVector(random, 384);
    const opposite = query.map((x) => -x);
    await subject.index.add({ documentId, applicationId, space: SPACE }, [
      chunk(0, query, 'same'),
      chunk(1, opposite, 'opposite'),
      ...Array.from({ length: 8 }, (_, i) => chunk(i + 2, randomUnitVector(random, 384))),
    ]);

    expect(await subject.index.search({ applicationId, space: SPACE, vector: query, documentIds: [documentId], limit: 3 })).toHaveLength(3);
    const strong = await subject.index.search({ applicationId, space: SPACE, vector: query, documentIds: [documentId], limit: 10, minScore: 0.5 });
    expect(strong.map((h) => h.content)).toEqual(['same']);
    const all = await subject.index.search({ applicationId, space: SPACE, vector: query, documentIds: [documentId], limit: 10 });
    expect(all.at(-1)).toMatchObject({ content: 'opposite' });
    expect(all.at(-1)!.score).toBeCloseTo(-1, 4);
  });

  it('answers nothing for no documents, and forgets a removed document', async () => {
    const random = seeded(6);
    const applicationId = await subject.anApplication();
    const documentId = await subject.aDocument(applicationId);
    const vector = randomUnitVector(random, 384);
    await subject.index.add({ documentId, applicationId, space: SPACE }, [chunk(0, vector)]);
    expect(await subject.index.search({ applicationId, space: SPACE, vector, documentIds: [], limit: 5 })).toEqual([]);

    await subject.index.removeDocument(documentId);

    expect(await subject.index.search({ applicationId, space: SPACE, vector, documentIds: [documentId], limit: 5 })).toEqual([]);
  });

  it('ranks a few hundred chunks like the exact reference', async () => {
    const random = seeded(7);
    const applicationId = await subject.anApplication();
    const documentId = await subject.aDocument(applicationId);
    const chunks = Array.from({ length: 500 }, (_, i) => chunk(i, randomUnitVector(random, 384)));
    await subject.index.add({ documentId, applicationId, space: SPACE }, chunks);
    let found = 0;
    for (let q = 0; q < 10; q++) {
      const query = randomUnitVector(random, 384);
      const hits = await subject.index.search({ applicationId, space: SPACE, vector: query, documentIds: [documentId], limit: 10 });
      const expected = new Set(topKBySimilarity(query, chunks.map((c) => ({ id: c.chunkIndex, vector: c.vector })), 10).map((e) => e.id));
      expect(hits).toHaveLength(10);
      found += hits.filter((h) => expected.has(h.chunkIndex)).length;
    }
    // An exact scan finds all of them; HNSW is approximate, so it is held to the recall the benchmark targets.
    expect(found / 100).toBeGreaterThanOrEqual(subject.index.strategy === 'exact' ? 1 : 0.95);
  });
});

describe('PgvectorVectorIndex on PGlite: one statement per search', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    db = await openTestDatabase('pglite');
  });
  afterAll(() => db.close());

  const setting = async (name: string) => ((await db.dataSource.query(`SELECT current_setting($1) AS v`, [name])) as { v: string }[])[0]!.v;
  // This session's own counts are flushed on demand; the snapshot is not cached within a transaction.
  const indexScans = async () =>
    (await db.dataSource.query(`SELECT pg_stat_force_next_flush(), pg_stat_clear_snapshot()`)) &&
    Number(((await db.dataSource.query(`SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'knowledge_chunks_hnsw_384'`)) as { idx_scan: string }[])[0]!.idx_scan);

  it('walks the HNSW index past the exact threshold, compares exactly below it, and leaves the session settings as they were', async () => {
    const random = seeded(11);
    const { applicationId } = await anApplicationRow(db.dataSource);
    const documentId = await aDocumentRow(db.dataSource, applicationId);
    await db.dataSource.query(`UPDATE knowledge_documents SET chunk_count = 300 WHERE id = $1`, [documentId]);
    // smallBelow 0: no document is small enough to be compared exactly on its own (see the next test).
    const viaIndex = await PgvectorVectorIndex.open(db.dataSource, { exactBelow: 100, efSearch: 64, smallBelow: 0 });
    const exact = await PgvectorVectorIndex.open(db.dataSource, { exactBelow: 1000 });
    await viaIndex.add({ documentId, applicationId, space: SPACE }, Array.from({ length: 300 }, (_, i) => chunk(i, randomUnitVector(random, 384))));
    const before = { ef: await setting('hnsw.ef_search'), seqscan: await setting('enable_seqscan'), sort: await setting('enable_sort') };
    const query = { applicationId, space: SPACE, vector: randomUnitVector(random, 384), documentIds: [documentId], limit: 5 };

    const scans = await indexScans();
    const approximate = await viaIndex.search(query);
    expect(await indexScans()).toBeGreaterThan(scans);
    const exactHits = await exact.search(query);
    expect(await indexScans()).toBe(scans + 1);

    expect(approximate).toHaveLength(5);
    expect(exactHits.map((h) => h.chunkIndex)).toEqual(approximate.map((h) => h.chunkIndex));
    expect({ ef: await setting('hnsw.ef_search'), seqscan: await setting('enable_seqscan'), sort: await setting('enable_sort') }).toEqual(before);
    // Not even until the end of the caller's transaction.
    const inTransaction = await db.dataSource.transaction(async (m) => {
      await m.query(`SELECT * FROM knowledge_chunks_nearest($1::vector, 384, $2, $3, $4::uuid[], 5, 64, 0, 0)`, [`[${query.vector.join(',')}]`, applicationId, SPACE, [documentId]]);
      return ((await m.query(`SELECT current_setting('hnsw.ef_search') AS ef, current_setting('enable_seqscan') AS seqscan, current_setting('enable_sort') AS sort`)) as typeof before[])[0];
    });
    expect(inTransaction).toEqual(before);
  });

  it('past the threshold, compares the smallest documents exactly and walks the index for the rest, best of both first', async () => {
    const random = seeded(12);
    const { applicationId } = await anApplicationRow(db.dataSource);
    const large = await aDocumentRow(db.dataSource, applicationId);
    const small = await aDocumentRow(db.dataSource, applicationId);
    const alsoSmall = await aDocumentRow(db.dataSource, applicationId);
    const counts: Array<[string, number]> = [[large, 300], [small, 3], [alsoSmall, 5]];
    for (const [id, n] of counts) await db.dataSource.query(`UPDATE knowledge_documents SET chunk_count = $2 WHERE id = $1`, [id, n]);
    const index = await PgvectorVectorIndex.open(db.dataSource, { exactBelow: 100, smallBelow: 8 });
    const stored = new Map<string, IndexedChunk[]>();
    for (const [id, n] of counts) {
      stored.set(id, Array.from({ length: n }, (_, i) => chunk(i, randomUnitVector(random, 384))));
      await index.add({ documentId: id, applicationId, space: SPACE }, stored.get(id)!);
    }
    // The query is one of the small documents' own vectors: the exact part must answer it with a score of 1.
    const target = stored.get(alsoSmall)![4]!;
    const documentIds = counts.map(([id]) => id);

    const scans = await indexScans();
    const hits = await index.search({ applicationId, space: SPACE, vector: target.vector, documentIds, limit: 4 });
    expect(await indexScans()).toBe(scans + 1); // the large document went through the index

    expect(hits[0]).toMatchObject({ documentId: alsoSmall, chunkIndex: 4 });
    expect(hits[0]!.score).toBeCloseTo(1, 5);
    expect(hits).toHaveLength(4);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    // The merge is by score: the exact top 4 over all of them (random vectors are far apart, so HNSW finds its part).
    const all = counts.flatMap(([id]) => stored.get(id)!.map((c) => ({ id: `${id}:${c.chunkIndex}`, vector: c.vector })));
    expect(hits.map((h) => `${h.documentId}:${h.chunkIndex}`)).toEqual(topKBySimilarity(target.vector, all, 4).map((e) => e.id));

    // Both small documents fit in 8 chunks; with room for 3 only the smaller one is compared exactly, and a
    // limit below the candidates still answers only `limit` hits.
    const tighter = await PgvectorVectorIndex.open(db.dataSource, { exactBelow: 100, smallBelow: 3 });
    const fewer = await tighter.search({ applicationId, space: SPACE, vector: stored.get(small)![1]!.vector, documentIds, limit: 2 });
    expect(fewer).toHaveLength(2);
    expect(fewer[0]).toMatchObject({ documentId: small, chunkIndex: 1 });
  });
});
