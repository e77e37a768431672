import type { DataSource } from 'typeorm';
import type { Database } from '../../../adapters/persistence/data-source';
import { openVectorIndex } from '../../../adapters/persistence/knowledge/open-vector-index';
import { RARE_WORD_MAX_CHUNKS, type IndexedChunk, type VectorIndex } from '../../../core/knowledge/ports/vector-index.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { aDocumentRow, anApplicationRow, randomUnitVector, seeded } from './fixtures';

/**
 * The per-application word counts the keyword search reads (`knowledge_words`) are kept by triggers on
 * `knowledge_chunks`: after every way chunks come and go they equal a recount of the chunks themselves, and
 * a word's rarity follows them (a word in too many chunks is not ranked by; deleting those chunks makes it
 * rare again).
 */
const SPACE = 'local:local-hash-384';
const random = seeded(35);
const chunks = (texts: string[], from = 0): IndexedChunk[] =>
  texts.map((content, i) => ({ chunkIndex: from + i, content, tokenCount: 10, vector: randomUnitVector(random, 384) }));

async function stored(ds: DataSource, applicationId: string): Promise<Record<string, number>> {
  const rows = (await ds.query(`SELECT word, chunks FROM knowledge_words WHERE application_id = $1 AND space = $2 ORDER BY word`, [applicationId, SPACE])) as { word: string; chunks: number }[];
  return Object.fromEntries(rows.map((r) => [r.word, Number(r.chunks)]));
}

async function recounted(ds: DataSource, applicationId: string): Promise<Record<string, number>> {
  const rows = (await ds.query(
    `SELECT w AS word, count(*) AS chunks FROM knowledge_chunks c, unnest(tsvector_to_array(c.tsv)) AS w
      WHERE c.application_id = $1 AND c.space = $2 GROUP BY w ORDER BY w`,
    [applicationId, SPACE],
  )) as { word: string; chunks: string }[];
  return Object.fromEntries(rows.map((r) => [r.word, Number(r.chunks)]));
}

async function markReady(ds: DataSource, documentId: string, chunkCount: number, generation = 0): Promise<void> {
  await ds.query(`UPDATE knowledge_documents SET status = 'ready', chunk_count = $2, generation = $3 WHERE id = $1`, [documentId, chunkCount, generation]);
}

describe.each(DATABASE_KINDS)('knowledge word counts (%s)', (kind) => {
  let db: Database;
  let ds: DataSource;
  let index: VectorIndex;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    ds = db.dataSource;
    index = await openVectorIndex(ds);
  });
  afterAll(() => db.close());

  it('equal a recount of the chunks after inserts, a re-index, a document deleted and the application deleted', async () => {
    const { applicationId } = await anApplicationRow(ds);
    const other = await anApplicationRow(ds);
    const manual = await aDocumentRow(ds, applicationId);
    const faq = await aDocumentRow(ds, applicationId);
    await index.add({ documentId: manual, applicationId, space: SPACE }, chunks(['The pump PX-200 needs a new gasket', 'Gaskets wear out; replace the gasket yearly']));
    await index.add({ documentId: faq, applicationId, space: SPACE }, chunks(['Which gasket fits the pump?']));
    const otherDoc = await aDocumentRow(ds, other.applicationId);
    await index.add({ documentId: otherDoc, applicationId: other.applicationId, space: SPACE }, chunks(['An unrelated gasket']));
    expect(await stored(ds, applicationId)).toEqual(await recounted(ds, applicationId));
    expect((await stored(ds, applicationId)).gasket).toBe(3);
    expect((await stored(ds, other.applicationId)).gasket).toBe(1);

    // A re-index writes generation 1 beside generation 0, then drops generation 0.
    await index.add({ documentId: manual, applicationId, space: SPACE, generation: 1 }, chunks(['The pump PX-300 needs no gasket']));
    expect((await stored(ds, applicationId)).gasket).toBe(4);
    await index.keepGeneration(manual, 1);
    expect(await stored(ds, applicationId)).toEqual(await recounted(ds, applicationId));
    expect(await stored(ds, applicationId)).toMatchObject({ gasket: 2, px: 1 });
    expect((await stored(ds, applicationId))['px-200']).toBeUndefined(); // a word no chunk holds any more is gone

    await index.removeDocument(faq);
    expect(await stored(ds, applicationId)).toEqual(await recounted(ds, applicationId));

    await ds.query(`DELETE FROM knowledge_documents WHERE id = $1`, [manual]); // chunks go by the foreign key
    expect(await stored(ds, applicationId)).toEqual({});
    await ds.query(`DELETE FROM applications WHERE id = $1`, [other.applicationId]);
    expect(await stored(ds, other.applicationId)).toEqual({});
  });

  it('rank by a word only while it is rare in the application', async () => {
    const { applicationId } = await anApplicationRow(ds);
    const handbook = await aDocumentRow(ds, applicationId);
    const note = await aDocumentRow(ds, applicationId);
    const common = Array.from({ length: RARE_WORD_MAX_CHUNKS + 1 }, (_, i) => `Section ${i}: the turbine inspection checklist`);
    await index.add({ documentId: handbook, applicationId, space: SPACE }, chunks(common));
    await index.add({ documentId: note, applicationId, space: SPACE }, chunks(['Turbine inspection: log the vibration reading']));
    await markReady(ds, handbook, common.length);
    await markReady(ds, note, 1);
    const keyword = (documentIds: string[]) =>
      index.candidates({ applicationId, space: SPACE, vector: randomUnitVector(random, 384), text: 'turbine vibration', mode: 'keyword', documentIds, limit: 5 });

    // "turbine" is in 258 chunks: too common to rank by; "vibration" is rare and finds the note alone.
    let found = await keyword([handbook, note]);
    expect(found.keyword.map((h) => h.documentId)).toEqual([note]);

    await index.removeDocument(note);
    await ds.query(`DELETE FROM knowledge_documents WHERE id = $1`, [note]);
    await index.removeGeneration(handbook, 0);
    await index.add({ documentId: handbook, applicationId, space: SPACE }, chunks(common.slice(0, 3)));
    await markReady(ds, handbook, 3);
    // Now "turbine" is in 3 chunks: rare, and ranked by.
    found = await keyword([handbook]);
    expect(found.keyword).toHaveLength(3);
    expect(await stored(ds, applicationId)).toEqual(await recounted(ds, applicationId));
  });

  if (kind === 'postgres') {
    it('stay exact when documents of one application are added and deleted at once, without deadlocks', async () => {
      const { applicationId } = await anApplicationRow(ds);
      const words = ['alpha', 'bravo', 'kilo', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
      const texts = (seed: number) => Array.from({ length: 40 }, (_, i) => [...words.slice(seed % 4), ...words.slice(0, seed % 4)].slice(0, 3 + (i % 5)).join(' '));
      const first = await Promise.all(Array.from({ length: 6 }, () => aDocumentRow(ds, applicationId)));
      await Promise.all(first.map((documentId, i) => index.add({ documentId, applicationId, space: SPACE }, chunks(texts(i)))));
      const second = await Promise.all(Array.from({ length: 6 }, () => aDocumentRow(ds, applicationId)));
      await Promise.all([
        ...first.map((documentId) => index.removeDocument(documentId)),
        ...second.map((documentId, i) => index.add({ documentId, applicationId, space: SPACE }, chunks(texts(i + 1)))),
      ]);
      expect(await stored(ds, applicationId)).toEqual(await recounted(ds, applicationId));
      expect(Object.keys(await stored(ds, applicationId)).sort()).toEqual([...words].sort());
    });
  }
});
