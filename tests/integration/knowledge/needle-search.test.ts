import { LocalHashingEmbedder } from '../../../adapters/embedders/local-hashing.embedder';
import type { Database } from '../../../adapters/persistence/data-source';
import { openVectorIndex } from '../../../adapters/persistence/knowledge/open-vector-index';
import { DEFAULT_EXACT_BELOW } from '../../../adapters/persistence/knowledge/pgvector.vector-index';
import { TypeOrmKnowledgeDocumentRepository } from '../../../adapters/persistence/knowledge/type-orm-knowledge-document.repository';
import { embeddingSpace } from '../../../core/knowledge/domain/knowledge-document';
import { topKBySimilarity } from '../../../core/knowledge/domain/vector-math';
import type { VectorIndex } from '../../../core/knowledge/ports/vector-index.port';
import { KnowledgeRetriever } from '../../../core/knowledge/use-cases/knowledge-retriever';
import { platformEmbeddingKeys } from '../../../core/knowledge/use-cases/owner-embedding-keys';
import { handbookChunks, NEEDLE_FILE_NAME, NEEDLE_QUERY, NEEDLE_TEXT } from '../../support/needle-corpus';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { anApplicationRow } from './fixtures';

/**
 * The needle: one short refund policy in an application that also holds a 2,500-chunk handbook. Past
 * 2,000 candidate chunks (DEFAULT_EXACT_BELOW) the search used to walk the HNSW index alone, which never reached
 * the policy; the question it answers must find it first. On PGlite this is pgvector's path; on a PostgreSQL
 * without pgvector, the exact-scan fallback's. The handbook is just large enough to be past that threshold, with
 * a quarter to spare: each thousand chunks costs seconds of embedding, loading and graph building per database.
 */
const HAYSTACK = 2500;
const INSIDE_NEEDLE = 'The badge printer on the third floor jams when its tray holds more than forty cards; the facilities desk keeps a spare roller in the blue cabinet.';
const INSIDE_QUERY = 'the badge printer jams, where is the spare roller';
const PART_NUMBER_TEXT = 'Ordering supplies: quote XQ-7731-ZB on the form.';
// Mostly the handbook's everyday words around the code: by meaning it looks like any handbook paragraph.
const PART_NUMBER_QUERY = 'employees must request company equipment and annual leave through the HR portal with XQ-7731-ZB';
const embedder = new LocalHashingEmbedder();
const SPACE = embeddingSpace('local', embedder.model);

/** The handbook and its vectors, embedded once for both databases (embedding thousands of chunks takes seconds). */
let embedded: Promise<{ handbook: string[]; handbookVectors: number[][] }> | undefined;
const corpus = () =>
  (embedded ??= (async () => {
    const handbook = handbookChunks(HAYSTACK);
    return { handbook, handbookVectors: await embedder.embed(handbook) };
  })());

describe.each(DATABASE_KINDS)(`knowledge search finds a small document among ${HAYSTACK} chunks of a large one (%s)`, (kind) => {
  let db: Database;
  let index: VectorIndex;
  let retriever: KnowledgeRetriever;
  let app: { id: string; ownerId: string };
  let needleId: string;
  let handbookId: string;
  let handbook: string[];
  let handbookVectors: number[][];

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    const ds = db.dataSource;
    const documents = new TypeOrmKnowledgeDocumentRepository(ds);
    index = await openVectorIndex(ds);
    const { userId, applicationId } = await anApplicationRow(ds);
    app = { id: applicationId, ownerId: userId };

    const aDocument = async (fileName: string, text: string[]) => {
      const doc = await documents.create({
        applicationId, fileName, format: 'md', sizeBytes: Buffer.byteLength(text.join('\n\n')), storageKey: `knowledge/${fileName}`,
        chunkSize: 1000, chunkOverlap: 200, embeddingProvider: 'local', embeddingModel: embedder.model, embeddingDimension: embedder.dimension,
      });
      return doc.id;
    };
    ({ handbook, handbookVectors } = await corpus());
    handbookId = await aDocument('employee-handbook.md', handbook);
    needleId = await aDocument(NEEDLE_FILE_NAME, [NEEDLE_TEXT]);

    // Bulk load, as the bench does: inserting thousands of rows into an HNSW graph one by one takes a minute under
    // WebAssembly, building the graph once afterwards a fraction of it. The index is the migration's own.
    const [hnsw] = (await ds.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'knowledge_chunks_hnsw_384' AND schemaname = current_schema()`)) as { indexdef: string }[];
    if (hnsw) await ds.query(`DROP INDEX knowledge_chunks_hnsw_384`);
    await index.add(
      { documentId: handbookId, applicationId, space: SPACE },
      handbook.map((content, i) => ({ chunkIndex: i, content, tokenCount: Math.ceil(content.length / 4), vector: handbookVectors[i]! })),
    );
    // Two passages inside the handbook document itself, with their place: a distinctive sentence (the needle
    // inside a large document, which only the HNSW walk could find before) and a part number.
    const inside = [INSIDE_NEEDLE, PART_NUMBER_TEXT];
    const insideVectors = await embedder.embed(inside);
    await index.add(
      { documentId: handbookId, applicationId, space: SPACE },
      inside.map((content, i) => ({ chunkIndex: HAYSTACK + i, content, tokenCount: 40, vector: insideVectors[i]!, page: 212 + i, section: 'Facilities > Printers' })),
    );
    const [needleVector] = await embedder.embed([NEEDLE_TEXT]);
    await index.add({ documentId: needleId, applicationId, space: SPACE }, [{ chunkIndex: 0, content: NEEDLE_TEXT, tokenCount: 60, vector: needleVector! }]);
    if (hnsw) await ds.query(hnsw.indexdef);
    for (const [id, chunkCount] of [[handbookId, HAYSTACK + 2], [needleId, 1]] as const) {
      await documents.startRun(id);
      await documents.markReady(id, { chunkCount, embeddingModel: embedder.model, embeddingDimension: embedder.dimension });
    }
    retriever = new KnowledgeRetriever({ documents, index, embedders: { get: () => embedder }, keys: platformEmbeddingKeys(() => undefined) });
  }, 300_000);

  afterAll(() => db?.close());

  it('uses the index the database offers (HNSW where pgvector is installed), with more candidates than an exact scan is chosen for', () => {
    expect(index.strategy).toBe(kind === 'pglite' ? 'hnsw' : 'exact');
    expect(HAYSTACK).toBeGreaterThan(DEFAULT_EXACT_BELOW);
  });

  it.each([1, 10])('answers "how many days do I have to return a widget" with the refund policy first (limit %s)', async (limit) => {
    const hits = await retriever.retrieve(app, NEEDLE_QUERY, { limit, mode: 'vector' });

    expect(hits).toHaveLength(limit);
    expect(hits[0]).toMatchObject({ documentId: needleId, fileName: NEEDLE_FILE_NAME, chunkIndex: 0, content: NEEDLE_TEXT });
    // Its true cosine similarity, well above the handbook's best.
    const [query] = await embedder.embed([NEEDLE_QUERY]);
    const [bestOfHandbook] = topKBySimilarity(query!, handbookVectors.map((vector, id) => ({ id, vector })), 1);
    expect(hits[0]!.score).toBeGreaterThan(bestOfHandbook!.score + 0.1);
    // The rest are handbook chunks, best first.
    for (const hit of hits.slice(1)) expect(hit.documentId).toBe(handbookId);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('finds the refund policy first in hybrid mode (the default) too', async () => {
    const hits = await retriever.retrieve(app, NEEDLE_QUERY, { limit: 10 });
    expect(hits[0]).toMatchObject({ documentId: needleId, fileName: NEEDLE_FILE_NAME, chunkIndex: 0 });
  });

  it('finds a needle sentence inside the large handbook first in hybrid mode, with its page and section', async () => {
    const hits = await retriever.retrieve(app, INSIDE_QUERY, { limit: 10 });
    expect(hits[0]).toMatchObject({ documentId: handbookId, chunkIndex: HAYSTACK, content: INSIDE_NEEDLE, page: 212, section: 'Facilities > Printers', byKeyword: true });
  });

  it('finds a part number that ranking by meaning puts low, by keyword and in hybrid mode', async () => {
    const vector = await retriever.retrieve(app, PART_NUMBER_QUERY, { limit: 10, mode: 'vector' });
    const keyword = await retriever.retrieve(app, PART_NUMBER_QUERY, { limit: 10, mode: 'keyword' });
    const hybrid = await retriever.retrieve(app, PART_NUMBER_QUERY, { limit: 10, mode: 'hybrid' });
    const part = { documentId: handbookId, chunkIndex: HAYSTACK + 1, page: 213, section: 'Facilities > Printers' };
    expect(vector.map((h) => h.chunkIndex).indexOf(HAYSTACK + 1)).not.toBe(0);
    expect(keyword[0]).toMatchObject(part);
    expect(hybrid[0]).toMatchObject(part);
    // The chat keeps it too, although its cosine is far below the handbook's best.
    const relevant = await retriever.retrieve(app, PART_NUMBER_QUERY, { limit: 5, relevantOnly: true });
    expect(relevant[0]).toMatchObject(part);
  });

  it('keeps the refund policy as the chat retrieves context (relevant hits only)', async () => {
    const hits = await retriever.retrieve(app, NEEDLE_QUERY, { limit: 5, relevantOnly: true });
    expect(hits[0]?.fileName).toBe(NEEDLE_FILE_NAME);
  });

  it("still finds the handbook's own best chunk for a question the handbook answers", async () => {
    const question = handbook[1234]!.split('. ').slice(1, 3).join('. ');
    const [query] = await embedder.embed([question]);
    const [truth] = topKBySimilarity(query!, handbookVectors.map((vector, id) => ({ id, vector })), 1);

    const hits = await retriever.retrieve(app, question, { limit: 10, mode: 'vector' });

    expect(hits.map((h) => `${h.documentId}:${h.chunkIndex}`)).toContain(`${handbookId}:${truth!.id}`);
  });
});
