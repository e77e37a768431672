import { cpus } from 'node:os';
import type { DataSource } from 'typeorm';
import { LocalHashingEmbedder } from '../adapters/embedders/local-hashing.embedder';
import { InMemoryFileStore } from '../adapters/files/in-memory.file-store';
import { ExactScanVectorIndex } from '../adapters/persistence/knowledge/exact-scan.vector-index';
import { DEFAULT_EF_SEARCH, DEFAULT_SMALL_BELOW, PgvectorVectorIndex } from '../adapters/persistence/knowledge/pgvector.vector-index';
import { TypeOrmKnowledgeDocumentRepository } from '../adapters/persistence/knowledge/type-orm-knowledge-document.repository';
import { openDatabase, type Database } from '../adapters/persistence/data-source';
import { PGliteUpkeep } from '../adapters/persistence/pglite/pglite-upkeep';
import { pgliteThreadSetting } from '../apps/shared/config';
import { embeddingSpace } from '../core/knowledge/domain/knowledge-document';
import { topKBySimilarity } from '../core/knowledge/domain/vector-math';
import type { VectorIndex } from '../core/knowledge/ports/vector-index.port';
import { rankCandidates, type SearchMode } from '../core/knowledge/domain/hybrid-ranking';
import { platformEmbeddingKeys } from '../core/knowledge/use-cases/owner-embedding-keys';
import { LibraryDocumentParser } from '../adapters/documents/library.document-parser';
import { ProcessDocumentUseCase } from '../core/knowledge/use-cases/process-document.use-case';
import { handbookChunks, NEEDLES } from '../tests/support/needle-corpus';

/**
 * `npm run bench:knowledge`: ingestion throughput with the local embedder, then vector search at 10,000
 * and 100,000 chunks on the embedded PGlite: HNSW (pgvector) latency and recall@10 against an exact
 * top 10, and the exact scans' latency. Targets: p99 < 20 ms at 100,000 chunks with recall@10 >= 0.95.
 * Then the needles at the same sizes: small documents of their own subject (a refund policy, ...) in an
 * application whose handbook has that many chunks; needle recall@1 and @10 of the questions they answer,
 * and p50/p99, per search mode (vector, keyword, hybrid), for needles in their own small document and
 * inside the handbook. Target (issue 35): hybrid recall@1 of 1.0 for both kinds within a 30 ms p99.
 *
 * Env: BENCH_SIZES (default "10000,100000"), BENCH_QUERIES (200), BENCH_INGEST_MB (2),
 * BENCH_EF_SEARCH (default "100,200,300"), BENCH_NEEDLE_ROUNDS (25 timed passes over the needle questions),
 * BENCH_NEEDLES_ONLY=1 (the needle part alone), BENCH_MODES (the needle part's modes, default
 * "vector,keyword,hybrid"; "keyword" alone skips the HNSW build), BENCH_EXACT_QUERIES (20), BENCH_FALLBACK_MAX (10000: the
 * largest corpus the real[] exact-scan fallback is measured on), BENCH_DATABASE_URL (measure that
 * fallback on this PostgreSQL, where it is used, instead of PGlite), PGLITE_THREAD=off (PGlite on the event loop instead of its own thread).
 */
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const WARMUP = 20;
const INGEST_MB = Number(process.env.BENCH_INGEST_MB ?? 2);
const EF_SEARCH = (process.env.BENCH_EF_SEARCH ?? '100,200,300').split(',').map(Number);
const EXACT_QUERIES = Number(process.env.BENCH_EXACT_QUERIES ?? 20);
const FALLBACK_MAX = Number(process.env.BENCH_FALLBACK_MAX ?? 10_000);
const FALLBACK_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const CHUNKS_PER_DOCUMENT = 1000;
const NEEDLE_ROUNDS = Number(process.env.BENCH_NEEDLE_ROUNDS ?? 25);
const NEEDLES_ONLY = process.env.BENCH_NEEDLES_ONLY === '1';
/** BENCH_REINDEX_CHUNKS (0 = skip): a document of about that many chunks re-indexed while searches run; BENCH_REINDEX_ONLY=1 runs that part alone. */
const REINDEX_CHUNKS = Number(process.env.BENCH_REINDEX_CHUNKS ?? 10_000);
const REINDEX_ONLY = process.env.BENCH_REINDEX_ONLY === '1';
/** The needle part's search modes (BENCH_MODES, default all three); without vector and hybrid the HNSW index is not built. */
const MODES = (process.env.BENCH_MODES ?? 'vector,keyword,hybrid').split(',') as SearchMode[];
const NEEDS_HNSW = MODES.some((mode) => mode !== 'keyword');
/** The needles' haystack: a handbook cut into documents of this many chunks (the issue's handbook had 3,946). */
const HANDBOOK_CHUNKS_PER_DOCUMENT = 5000;
/** PGlite on a thread of its own (PGLITE_THREAD=on, the default) or on the event loop (off), as `npm start` runs it. */
const PGLITE_THREAD = pgliteThreadSetting();
const embedder = new LocalHashingEmbedder();
const SPACE = embeddingSpace('local', embedder.model);

// ---------------------------------------------------------------- synthetic corpus

/** Deterministic, so every run searches the same corpus. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const random = seeded(20251122);
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'ba', 'do', 'fe', 'gi', 'ha', 'ju', 'ly', 'mo', 'ny'];
const VOCABULARY = Array.from({ length: 20_000 }, () => {
  const length = 2 + Math.floor(random() * 3);
  return Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
});
const TOPICS = 500;
const COMMON = VOCABULARY.slice(0, 200);

/**
 * A chunk reads like a paragraph on one of 500 topics: mostly that topic's own words (Zipf-like, so a
 * few dominate), some words shared by every topic, a few from anywhere.
 */
function paragraph(topic: number, words = 70): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const r = random();
    if (r < 0.65) out.push(VOCABULARY[200 + ((topic * 37 + Math.floor(40 * random() ** 2)) % 19_800)]!);
    else if (r < 0.9) out.push(COMMON[Math.floor(COMMON.length * random() ** 2)]!);
    else out.push(VOCABULARY[Math.floor(random() * VOCABULARY.length)]!);
    if (i % 12 === 11) out[out.length - 1] += '.';
  }
  return out.join(' ');
}

/** A query: a handful of words of one chunk, the way a user names what they look for. */
function queryFrom(text: string): string {
  const words = text.replace(/\./g, '').split(' ');
  const start = Math.floor(random() * Math.max(1, words.length - 8));
  return words.slice(start, start + 6 + Math.floor(random() * 4)).join(' ');
}

// ---------------------------------------------------------------- helpers

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (value: number): string => `${value.toFixed(2)} ms`;
const now = () => performance.now();

async function anApplication(ds: DataSource): Promise<string> {
  const [user] = (await ds.query(`INSERT INTO users (email, display_name, password_hash) VALUES ($1, 'Bench', 'x') RETURNING id`, [`bench-${Date.now()}-${random()}@example.com`])) as { id: string }[];
  const [app] = (await ds.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Bench', $2) RETURNING id`, [user!.id, `bench-${Math.floor(random() * 1e12)}`])) as { id: string }[];
  return app!.id;
}

/** The statistics a served platform has: the PGlite upkeep's round (every 10 s in \`npm start\`) after loading. */
async function analyzeAsServed(ds: DataSource): Promise<void> {
  await new PGliteUpkeep(ds).runOnce();
}

async function aReadyDocument(ds: DataSource, applicationId: string, chunkCount: number): Promise<string> {
  const [doc] = (await ds.query(
    `INSERT INTO knowledge_documents (application_id, file_name, format, size_bytes, storage_key, status, progress, chunk_count, chunk_size, chunk_overlap, embedding_provider, embedding_model, embedding_dimension)
     VALUES ($1, 'corpus.txt', 'txt', 0, $2, 'ready', 100, $3, 1000, 200, 'local', $4, $5) RETURNING id`,
    [applicationId, `knowledge/bench-${Math.floor(random() * 1e12)}.txt`, chunkCount, embedder.model, embedder.dimension],
  )) as { id: string }[];
  return doc!.id;
}

// ---------------------------------------------------------------- ingestion

async function ingestion(): Promise<void> {
  const db = await openDatabase({ pgliteThread: PGLITE_THREAD });
  try {
    const ds = db.dataSource;
    const documents = new TypeOrmKnowledgeDocumentRepository(ds);
    const files = new InMemoryFileStore();
    const index = await PgvectorVectorIndex.open(ds);
    const process = new ProcessDocumentUseCase({ documents, files, index, embedders: { get: () => embedder }, keys: platformEmbeddingKeys(() => undefined), parser: new LibraryDocumentParser() });
    const applicationId = await anApplication(ds);

    // Documents of about 1 MB of paragraphs, processed one after another as the job queue would.
    const texts: string[] = [];
    for (let d = 0; d < INGEST_MB; d++) {
      const parts: string[] = [];
      let size = 0;
      while (size < 1024 * 1024) {
        const p = paragraph(Math.floor(random() * TOPICS));
        parts.push(p);
        size += p.length + 2;
      }
      texts.push(parts.join('\n\n'));
    }
    const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    const ids: string[] = [];
    for (const [i, text] of texts.entries()) {
      const storageKey = `knowledge/ingest-${i}.txt`;
      await files.write(storageKey, Buffer.from(text));
      const doc = await documents.create({
        applicationId, fileName: `doc-${i}.txt`, format: 'txt', sizeBytes: Buffer.byteLength(text), storageKey,
        chunkSize: 1000, chunkOverlap: 200, embeddingProvider: 'local', embeddingModel: embedder.model, embeddingDimension: embedder.dimension,
      });
      ids.push(doc.id);
    }
    const started = now();
    for (const id of ids) await process.execute({ documentId: id });
    const elapsed = now() - started;
    let chunks = 0;
    for (const id of ids) {
      const doc = (await documents.findById(id))!;
      if (doc.status !== 'ready') throw new Error(`document ${id} ended ${doc.status}: ${doc.error}`);
      chunks += doc.chunkCount;
    }
    const embedStarted = now();
    await embedder.embed(texts.flatMap((t) => t.split('\n\n')));
    const embedOnly = now() - embedStarted;

    console.log('\n## Ingestion (local embedder, PGlite + pgvector HNSW, parse -> chunk -> embed -> index)\n');
    console.log(`| documents | MB | chunks | time | MB per minute | chunks per second | embedding alone |`);
    console.log(`|---|---|---|---|---|---|---|`);
    console.log(
      `| ${ids.length} | ${(bytes / 2 ** 20).toFixed(1)} | ${chunks} | ${(elapsed / 1000).toFixed(1)} s | ${((bytes / 2 ** 20) / (elapsed / 60_000)).toFixed(1)} | ${(chunks / (elapsed / 1000)).toFixed(0)} | ${((bytes / 2 ** 20) / (embedOnly / 60_000)).toFixed(0)} MB/min |`,
    );
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------- re-index while searching

/**
 * A ready document of about REINDEX_CHUNKS chunks is re-indexed with other chunk settings (the next generation
 * built beside the live one, then switched in one statement) while a loop of searches runs against it: every
 * search must find the document (never absent), and the progress the document reports is sampled.
 */
async function reindexWhileSearching(): Promise<void> {
  const db = await openDatabase({ pgliteThread: PGLITE_THREAD });
  try {
    const ds = db.dataSource;
    const documents = new TypeOrmKnowledgeDocumentRepository(ds);
    const files = new InMemoryFileStore();
    const index = await PgvectorVectorIndex.open(ds);
    const process = new ProcessDocumentUseCase({ documents, files, index, embedders: { get: () => embedder }, keys: platformEmbeddingKeys(() => undefined), parser: new LibraryDocumentParser() });
    const applicationId = await anApplication(ds);
    // Paragraphs of about 300 characters, chunked at 300 with no overlap: about one chunk each.
    const parts: string[] = [];
    for (let i = 0; i < REINDEX_CHUNKS; i++) parts.push(paragraph(Math.floor(random() * TOPICS)).slice(0, 290));
    const text = parts.join('\n\n');
    await files.write('knowledge/reindex.txt', Buffer.from(text));
    const doc = await documents.create({
      applicationId, fileName: 'reindex.txt', format: 'txt', sizeBytes: Buffer.byteLength(text), storageKey: 'knowledge/reindex.txt',
      chunkSize: 300, chunkOverlap: 0, embeddingProvider: 'local', embeddingModel: embedder.model, embeddingDimension: embedder.dimension,
    });
    const ingestStarted = now();
    await process.execute({ documentId: doc.id });
    const ingested = now() - ingestStarted;
    const ready = (await documents.findById(doc.id))!;
    if (ready.status !== 'ready') throw new Error(`document ended ${ready.status}: ${ready.error}`);

    const generation = (await documents.startReindex(doc.id, { chunkSize: 600, chunkOverlap: 0 }))!;
    let running = true;
    const latencies: number[] = [];
    const progress: number[] = [];
    let absent = 0;
    const [queryVector] = await embedder.embed([parts[0]!]);
    const searching = (async () => {
      while (running) {
        const live = (await documents.findById(doc.id))!;
        if (live.pendingProgress !== null && progress.at(-1) !== live.pendingProgress) progress.push(live.pendingProgress);
        const t = now();
        const found = await index.candidates({ applicationId, space: SPACE, vector: queryVector!, text: parts[0]!, mode: 'hybrid', documentIds: [doc.id], limit: 10 });
        latencies.push(now() - t);
        if (found.vector.length === 0) absent++;
      }
    })();
    const started = now();
    await process.execute({ documentId: doc.id, generation });
    const elapsed = now() - started;
    running = false;
    await searching;
    const after = (await documents.findById(doc.id))!;
    latencies.sort((a, b) => a - b);
    console.log('\n## Re-index while searching (local embedder, PGlite + pgvector HNSW)\n');
    console.log('| chunks before | chunks after | first ingestion | re-index | searches during it | search p50 | search p99 | searches that missed the document | progress seen |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    console.log(
      `| ${ready.chunkCount.toLocaleString('en')} | ${after.chunkCount.toLocaleString('en')} | ${(ingested / 1000).toFixed(1)} s | ${(elapsed / 1000).toFixed(1)} s | ${latencies.length} | ${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 99))} | ${absent} | ${progress.slice(0, 6).join(', ')}${progress.length > 6 ? ` … ${progress.at(-1)}` : ''} |`,
    );
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------- search

/** The exact top 10 by dot product (all vectors are unit length), as positions in `vectors`. */
function exactTop10(query: number[], vectors: number[][]): Set<number> {
  return new Set(topKBySimilarity(query, vectors.map((vector, id) => ({ id, vector })), 10).map((hit) => hit.id));
}

interface SearchRow {
  chunks: number;
  method: string;
  p50: number;
  p99: number;
  recall?: number;
  queries: number;
}

async function timeQueries(count: number, run: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = now();
    await run(i);
    times.push(now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function search(size: number): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  let db: Database | undefined = await openDatabase({ pgliteThread: PGLITE_THREAD });
  try {
    const ds = db.dataSource;
    const applicationId = await anApplication(ds);
    console.log(`\n### ${size.toLocaleString('en')} chunks`);

    let started = now();
    const texts = Array.from({ length: size }, () => paragraph(Math.floor(random() * TOPICS)));
    const vectors = await embedder.embed(texts);
    console.log(`- generated and embedded the corpus in ${((now() - started) / 1000).toFixed(1)} s`);

    // Bulk load: drop the dimension's HNSW index, insert, build it again from the migration's own definition.
    const [definition] = (await ds.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'knowledge_chunks_hnsw_384'`)) as { indexdef: string }[];
    await ds.query(`DROP INDEX knowledge_chunks_hnsw_384`);
    const index = await PgvectorVectorIndex.open(ds);
    const documentIds: string[] = [];
    started = now();
    for (let offset = 0; offset < size; offset += CHUNKS_PER_DOCUMENT) {
      const count = Math.min(CHUNKS_PER_DOCUMENT, size - offset);
      const documentId = await aReadyDocument(ds, applicationId, count);
      documentIds.push(documentId);
      const chunks = Array.from({ length: count }, (_, i) => ({ chunkIndex: i, content: texts[offset + i]!, tokenCount: Math.ceil(texts[offset + i]!.length / 4), vector: vectors[offset + i]! }));
      await index.add({ documentId, applicationId, space: SPACE }, chunks);
    }
    console.log(`- inserted in ${((now() - started) / 1000).toFixed(1)} s`);
    started = now();
    await ds.query(`SET maintenance_work_mem = '1GB'`);
    await ds.query(definition!.indexdef);
    await analyzeAsServed(ds);
    console.log(`- built the HNSW index (${/WITH \(([^)]*)\)/.exec(definition!.indexdef)?.[1] ?? 'defaults'}) in ${((now() - started) / 1000).toFixed(1)} s`);

    // Two kinds of query: held-out paragraphs of the same corpus (how ANN benchmarks measure recall) and a few
    // words lifted from a stored chunk (how people search). The second is harder: a short text is only weakly
    // similar to any chunk, so its true top 10 are near-ties.
    const querySets: Array<[string, number[][]]> = [
      ['paragraph queries', await embedder.embed(Array.from({ length: QUERIES + WARMUP }, () => paragraph(Math.floor(random() * TOPICS))))],
      ['short queries', await embedder.embed(Array.from({ length: QUERIES + WARMUP }, () => queryFrom(texts[Math.floor(random() * size)]!)))],
    ];
    started = now();
    const truths = querySets.map(([, vectorsOfSet]) => vectorsOfSet.slice(WARMUP).map((q) => exactTop10(q, vectors)));
    console.log(`- exact top 10 of ${2 * QUERIES} queries computed in memory in ${((now() - started) / 1000).toFixed(1)} s (the reference for recall)`);
    const idOf = (documentId: string, chunkIndex: number) => documentIds.indexOf(documentId) * CHUNKS_PER_DOCUMENT + chunkIndex;
    const queryOf = (vector: number[]) => ({ applicationId, space: SPACE, vector, documentIds, limit: 10 });

    for (const [set, [label, queryVectors]] of querySets.entries()) {
      for (const efSearch of EF_SEARCH) {
        const hnsw = await PgvectorVectorIndex.open(ds, { efSearch });
        for (let i = 0; i < WARMUP; i++) await hnsw.search(queryOf(queryVectors[i]!));
        let found = 0;
        const times = await timeQueries(QUERIES, async (i) => {
          const hits = await hnsw.search(queryOf(queryVectors[WARMUP + i]!));
          found += hits.filter((h) => truths[set]![i]!.has(idOf(h.documentId, h.chunkIndex))).length;
        });
        rows.push({ chunks: size, method: `HNSW, ef_search ${efSearch}, ${label}`, p50: percentile(times, 50), p99: percentile(times, 99), recall: found / (QUERIES * 10), queries: QUERIES });
      }
    }
    const queryVectors = querySets[1]![1];
    const query = (i: number) => queryOf(queryVectors[i]!);

    // The same adapter told to compare every candidate (what it does by itself below 2,000 candidates).
    const exact = await PgvectorVectorIndex.open(ds, { exactBelow: Number.MAX_SAFE_INTEGER });
    const exactTimes = await timeQueries(EXACT_QUERIES, (i) => exact.search(query(WARMUP + i)).then(() => undefined));
    rows.push({ chunks: size, method: 'pgvector exact scan, short queries', p50: percentile(exactTimes, 50), p99: percentile(exactTimes, 99), recall: 1, queries: EXACT_QUERIES });
    await db.close();
    db = undefined;

    // The fallback for PostgreSQL without pgvector: real[] and a dot product in SQL, on its own database.
    if (size <= FALLBACK_MAX) rows.push(await exactFallback(size, texts, vectors, queryVectors));
  } finally {
    await db?.close();
  }
  return rows;
}

async function exactFallback(size: number, texts: string[], vectors: number[][], queryVectors: number[][]): Promise<SearchRow> {
  const schema = `bench_${Math.floor(random() * 1e9)}`;
  const db = await openDatabase(FALLBACK_DATABASE_URL ? { databaseUrl: FALLBACK_DATABASE_URL, schema } : {});
  try {
    const ds = db.dataSource;
    const applicationId = await anApplication(ds);
    const index: VectorIndex = new ExactScanVectorIndex(ds);
    const documentIds: string[] = [];
    for (let offset = 0; offset < size; offset += CHUNKS_PER_DOCUMENT) {
      const count = Math.min(CHUNKS_PER_DOCUMENT, size - offset);
      const documentId = await aReadyDocument(ds, applicationId, count);
      documentIds.push(documentId);
      await index.add(
        { documentId, applicationId, space: SPACE },
        Array.from({ length: count }, (_, i) => ({ chunkIndex: i, content: texts[offset + i]!, tokenCount: 1, vector: vectors[offset + i]! })),
      );
    }
    const times = await timeQueries(EXACT_QUERIES, (i) => index.search({ applicationId, space: SPACE, vector: queryVectors[WARMUP + i]!, documentIds, limit: 10 }).then(() => undefined));
    const where = FALLBACK_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    return { chunks: size, method: `exact-scan fallback (real[], no pgvector; ${where})`, p50: percentile(times, 50), p99: percentile(times, 99), recall: 1, queries: EXACT_QUERIES };
  } finally {
    await db.close();
    if (FALLBACK_DATABASE_URL) await dropSchema(FALLBACK_DATABASE_URL, schema);
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

// ---------------------------------------------------------------- needles

interface NeedleRow {
  chunks: number;
  method: string;
  queries: number;
  p50: number;
  p99: number;
  recallAt1: number;
  recallAt10: number;
}

/**
 * One application: a handbook of `size` chunks (documents of 5,000) and the needles, each a one-chunk
 * document that answers its own question (the true best match of that question, checked in memory).
 * Measured: the shipped search; the same with the small-document split turned off (`smallBelow: 0`, the
 * HNSW walk alone, as before); and then the needles' text added as one more chunk of a handbook document
 * each, searched with the needle documents left out, which only the HNSW walk can find.
 */
async function needles(size: number): Promise<NeedleRow[]> {
  const db = await openDatabase({ pgliteThread: PGLITE_THREAD });
  try {
    const ds = db.dataSource;
    const applicationId = await anApplication(ds);
    console.log(`\n### Needles among ${size.toLocaleString('en')} handbook chunks`);
    let started = now();
    const texts = handbookChunks(size);
    const vectors = await embedder.embed(texts);
    const needleVectors = await embedder.embed(NEEDLES.map((n) => n.text));
    const queries = await embedder.embed(NEEDLES.map((n) => n.query));
    console.log(`- generated and embedded the handbook in ${((now() - started) / 1000).toFixed(1)} s`);
    const handbookItems = vectors.map((vector, id) => ({ id, vector }));
    for (const [i, query] of queries.entries()) {
      // The truth the recall is measured against.
      const [best] = topKBySimilarity(query, [{ id: -1, vector: needleVectors[i]! }, ...handbookItems], 1);
      if (best!.id !== -1) throw new Error(`${NEEDLES[i]!.fileName} is not the best match of its own question`);
    }

    const [definition] = (await ds.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'knowledge_chunks_hnsw_384'`)) as { indexdef: string }[];
    await ds.query(`DROP INDEX knowledge_chunks_hnsw_384`);
    const loader = await PgvectorVectorIndex.open(ds);
    started = now();
    const handbookIds: string[] = [];
    for (let offset = 0; offset < size; offset += HANDBOOK_CHUNKS_PER_DOCUMENT) {
      const count = Math.min(HANDBOOK_CHUNKS_PER_DOCUMENT, size - offset);
      const documentId = await aReadyDocument(ds, applicationId, count);
      handbookIds.push(documentId);
      await loader.add(
        { documentId, applicationId, space: SPACE },
        Array.from({ length: count }, (_, i) => ({ chunkIndex: i, content: texts[offset + i]!, tokenCount: Math.ceil(texts[offset + i]!.length / 4), vector: vectors[offset + i]! })),
      );
    }
    const needleIds: string[] = [];
    for (const [i, needle] of NEEDLES.entries()) {
      const documentId = await aReadyDocument(ds, applicationId, 1);
      needleIds.push(documentId);
      await loader.add({ documentId, applicationId, space: SPACE }, [{ chunkIndex: 0, content: needle.text, tokenCount: Math.ceil(needle.text.length / 4), vector: needleVectors[i]! }]);
    }
    console.log(`- inserted in ${((now() - started) / 1000).toFixed(1)} s`);
    started = now();
    if (NEEDS_HNSW) {
      await ds.query(`SET maintenance_work_mem = '1GB'`);
      await ds.query(definition!.indexdef);
    }
    await analyzeAsServed(ds);
    console.log(NEEDS_HNSW ? `- built the HNSW index in ${((now() - started) / 1000).toFixed(1)} s` : '- keyword mode only: no HNSW index built');

    const allIds = [...handbookIds, ...needleIds];
    const key = (documentId: string, chunkIndex: number) => `${documentId}:${chunkIndex}`;
    const cases: Array<[string, () => Promise<PgvectorVectorIndex>, string[], (i: number) => string]> = [
      [
        `needle documents, shipped search (small documents up to ${DEFAULT_SMALL_BELOW.toLocaleString('en')} chunks exact, HNSW ef_search ${DEFAULT_EF_SEARCH} for the rest)`,
        () => PgvectorVectorIndex.open(ds),
        allIds,
        (i) => key(needleIds[i]!, 0),
      ],
      ['needle documents, HNSW walk alone (smallBelow 0: the search before this change)', () => PgvectorVectorIndex.open(ds, { smallBelow: 0 }), allIds, (i) => key(needleIds[i]!, 0)],
      [
        // The needles' text added as one more chunk of a handbook document each (through the index, as
        // ingestion adds chunks), searched with the needle documents left out: only the HNSW walk can find these.
        'needle text as a chunk inside the handbook (HNSW walk, shipped settings)',
        async () => {
          for (const [i, needle] of NEEDLES.entries()) {
            await loader.add(
              { documentId: handbookIds[i % handbookIds.length]!, applicationId, space: SPACE },
              [{ chunkIndex: HANDBOOK_CHUNKS_PER_DOCUMENT + i, content: needle.text, tokenCount: Math.ceil(needle.text.length / 4), vector: needleVectors[i]! }],
            );
          }
          return PgvectorVectorIndex.open(ds);
        },
        handbookIds,
        (i) => key(handbookIds[i % handbookIds.length]!, HANDBOOK_CHUNKS_PER_DOCUMENT + i),
      ],
    ];
    const rows: NeedleRow[] = [];
    for (const [method, open, documentIds, expected] of cases) {
      const index = await open();
      // The HNSW walk alone is the vector search before the small-document split: measured by meaning only.
      const modes = MODES.filter((mode) => !method.includes('walk alone') || mode === 'vector');
      for (const mode of modes) {
        // One round trip (knowledge_chunks_search) per query, ranked as the retriever ranks (rankCandidates).
        const search = async (i: number) =>
          rankCandidates(await index.candidates({ applicationId, space: SPACE, vector: queries[i]!, text: NEEDLES[i]!.query, mode, documentIds, limit: 10 }), mode, 10);
        let at1 = 0;
        let at10 = 0;
        for (let i = 0; i < queries.length; i++) {
          const hits = (await search(i)).map((h) => key(h.documentId, h.chunkIndex));
          if (hits[0] === expected(i)) at1++;
          if (hits.includes(expected(i))) at10++;
        }
        // Warm-up first: the first case would otherwise pay for the freshly built index and the new database.
        for (let i = 0; i < WARMUP; i++) await search(i % queries.length);
        const times = await timeQueries(NEEDLE_ROUNDS * queries.length, (i) => search(i % queries.length).then(() => undefined));
        rows.push({ chunks: size, method: `${method}; mode ${mode}`, queries: times.length, p50: percentile(times, 50), p99: percentile(times, 99), recallAt1: at1 / queries.length, recallAt10: at10 / queries.length });
      }
    }
    return rows;
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const started = now();
  console.log(`# Knowledge benchmark\n\nnode ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, embedded PGlite with pgvector ${PGLITE_THREAD ? 'on its own thread (PGLITE_THREAD=on, the default)' : 'on the event loop (PGLITE_THREAD=off)'}, local embedder (${embedder.model})`);
  if (REINDEX_CHUNKS > 0 && !NEEDLES_ONLY) await reindexWhileSearching();
  if (REINDEX_ONLY) return;
  if (INGEST_MB > 0 && !NEEDLES_ONLY) await ingestion();
  const rows: SearchRow[] = [];
  if (!NEEDLES_ONLY) {
    console.log('\n## Search (top 10, one application; recall@10 against the exact top 10)');
    for (const size of SIZES) rows.push(...(await search(size)));
  }
  if (rows.length > 0) console.log('\n| chunks | method | queries | p50 | p99 | recall@10 |\n|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.chunks.toLocaleString('en')} | ${r.method} | ${r.queries} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.recall === undefined ? '-' : r.recall.toFixed(3)} |`);
  const needleRows: NeedleRow[] = [];
  console.log(`\n## Needles (${NEEDLES.length} one-chunk documents and their questions, among a handbook; needle recall@1 and @10)`);
  for (const size of SIZES) needleRows.push(...(await needles(size)));
  console.log('\n| chunks | method | queries | p50 | p99 | needle recall@1 | needle recall@10 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of needleRows) console.log(`| ${r.chunks.toLocaleString('en')} | ${r.method} | ${r.queries} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.recallAt1.toFixed(3)} | ${r.recallAt10.toFixed(3)} |`);
  const largest = Math.max(...SIZES);
  const target = rows.filter((r) => r.chunks === largest && r.method.startsWith(`HNSW, ef_search ${DEFAULT_EF_SEARCH},`));
  for (const r of target) {
    const ok = r.p99 < 20 && (r.recall ?? 0) >= 0.95;
    console.log(`\nTarget at ${largest.toLocaleString('en')} chunks, default ef_search (${DEFAULT_EF_SEARCH}), ${r.method.split(', ').pop()}: p99 ${ms(r.p99)} (< 20 ms), recall@10 ${r.recall?.toFixed(3)} (>= 0.95): ${ok ? 'met' : 'NOT met'}`);
  }
  for (const r of needleRows.filter((n) => n.method.endsWith('mode hybrid'))) {
    const ok = r.p99 < 30 && r.recallAt1 === 1;
    console.log(`\nHybrid needle target at ${r.chunks.toLocaleString('en')} chunks (${r.method.split(' (')[0]}): p99 ${ms(r.p99)} (< 30 ms), recall@1 ${r.recallAt1.toFixed(3)} (1.0): ${ok ? 'met' : 'NOT met'}`);
  }
  console.log(`\nTotal time ${((now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
