import { cpus } from 'node:os';
import { LibraryDocumentParser } from '../adapters/documents/library.document-parser';
import { LocalHashingEmbedder } from '../adapters/embedders/local-hashing.embedder';
import { InMemoryFileStore } from '../adapters/files/in-memory.file-store';
import { InProcessJobQueue } from '../adapters/jobs/in-process.job-queue';
import { openDatabase } from '../adapters/persistence/data-source';
import { openVectorIndex } from '../adapters/persistence/knowledge/open-vector-index';
import { TypeOrmKnowledgeBaseRepository } from '../adapters/persistence/knowledge/type-orm-knowledge-base.repository';
import { TypeOrmKnowledgeDocumentRepository } from '../adapters/persistence/knowledge/type-orm-knowledge-document.repository';
import { pgliteThreadSetting } from '../apps/shared/config';
import type { Actor } from '../core/shared/actor';
import { KnowledgeRetriever } from '../core/knowledge/use-cases/knowledge-retriever';
import { platformEmbeddingKeys } from '../core/knowledge/use-cases/owner-embedding-keys';
import { PROCESS_DOCUMENT_JOB, ProcessDocumentUseCase, type ProcessDocumentJob } from '../core/knowledge/use-cases/process-document.use-case';
import { ReindexDocumentUseCase } from '../core/knowledge/use-cases/reindex-document.use-case';

/**
 * `npm run bench:knowledge-base`: a knowledge base of BENCH_BASE_CHUNKS chunks (default 10,000) in
 * BENCH_BASE_DOCUMENTS documents (default 10), used by an application, is re-indexed with other chunk settings
 * through the use case behind `POST /api/knowledge/bases/:id/reindex` (the documents' next generations built
 * by the background job, one at a time, as the platform runs them) while a loop searches as the application's
 * chat does (every base it uses, hybrid, top 8). Every BENCH_TICK_MS (1,000) it prints the base's progress, the
 * searches answered in that window, their p50 and p99, and how many found nothing of the base (which must
 * stay 0: search keeps answering throughout). Embedded PGlite, the local embedder; the figures mean something
 * only on a quiet machine.
 */
const CHUNKS = Number(process.env.BENCH_BASE_CHUNKS ?? 10_000);
const DOCUMENTS = Math.max(1, Number(process.env.BENCH_BASE_DOCUMENTS ?? 10));
const TICK_MS = Number(process.env.BENCH_TICK_MS ?? 1000);
const embedder = new LocalHashingEmbedder();

let seed = 48;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const WORDS = 'pump valve gasket ticket refund train flight badge laptop printer invoice budget contract holiday shift parcel warehouse courier'.split(' ');
/** About 290 characters of words: chunked at 300 with no overlap, about one chunk each. */
const paragraph = (): string => {
  const words: string[] = [];
  while (words.join(' ').length < 280) words.push(WORDS[Math.floor(random() * WORDS.length)]!);
  return words.join(' ').slice(0, 290);
};
const percentile = (sorted: number[], p: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
const ms = (value: number): string => (Number.isNaN(value) ? '-' : `${value.toFixed(1)} ms`);
const now = () => performance.now();

async function main(): Promise<void> {
  console.log(`# Knowledge base re-index while searching\n\nnode ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, embedded PGlite, local embedder (${embedder.model})`);
  const db = await openDatabase({ pgliteThread: pgliteThreadSetting() });
  const queue = new InProcessJobQueue((error) => console.error('job failed:', error instanceof Error ? error.message : error));
  try {
    const ds = db.dataSource;
    const documents = new TypeOrmKnowledgeDocumentRepository(ds);
    const bases = new TypeOrmKnowledgeBaseRepository(ds);
    const files = new InMemoryFileStore();
    const index = await openVectorIndex(ds);
    const deps = { documents, bases, files, index, queue, embedders: { get: () => embedder }, keys: platformEmbeddingKeys(() => undefined), parser: new LibraryDocumentParser() };
    const processing = new ProcessDocumentUseCase(deps);
    queue.register<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, (job) => processing.execute(job), { attempts: 1, backoffMs: 0, concurrency: 1 });
    await queue.start();

    const [user] = (await ds.query(`INSERT INTO users (email, display_name, password_hash) VALUES ($1, 'Bench', 'x') RETURNING id`, [`bench-${Date.now()}@example.com`])) as { id: string }[];
    const [app] = (await ds.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Bench', $2) RETURNING id`, [user!.id, `bench-${Date.now()}`])) as { id: string }[];
    const actor: Actor = { userId: user!.id, role: 'user' };
    const base = (await bases.create({ teamId: null, name: 'Bench base', description: '', createdBy: actor.userId }))!;
    await bases.setUsedBy(app!.id, [base.id]);

    // The base, processed once with 300-character chunks.
    const perDocument = Math.ceil(CHUNKS / DOCUMENTS);
    const loadStarted = now();
    const ids: string[] = [];
    for (let d = 0; d < DOCUMENTS; d++) {
      const text = Array.from({ length: perDocument }, paragraph).join('\n\n');
      const storageKey = `knowledge/${actor.userId}/${base.id}/doc-${d}.txt`;
      await files.write(storageKey, Buffer.from(text));
      const doc = await documents.create({
        applicationId: base.id, fileName: `doc-${d}.txt`, format: 'txt', sizeBytes: Buffer.byteLength(text), storageKey,
        chunkSize: 300, chunkOverlap: 0, embeddingProvider: 'local', embeddingModel: embedder.model, embeddingDimension: embedder.dimension,
      });
      await processing.execute({ documentId: doc.id });
      ids.push(doc.id);
    }
    const loaded = (await documents.listByApplication(base.id, 0, DOCUMENTS)).items;
    const chunksBefore = loaded.reduce((n, d) => n + d.chunkCount, 0);
    console.log(`\nBase of ${chunksBefore.toLocaleString('en')} chunks in ${DOCUMENTS} documents, processed in ${((now() - loadStarted) / 1000).toFixed(1)} s.`);

    // Searches as the application's chat runs them, back to back, while the base is re-indexed.
    const retriever = new KnowledgeRetriever(deps);
    const owner = { id: app!.id, ownerId: actor.userId };
    let running = true;
    let window: number[] = [];
    const all: number[] = [];
    let missed = 0;
    let windowMissed = 0;
    const searching = (async () => {
      while (running) {
        const t = now();
        const hits = await retriever.retrieve(owner, paragraph().slice(0, 80), { limit: 8, mode: 'hybrid', relevantOnly: true });
        const took = now() - t;
        window.push(took);
        all.push(took);
        if (!hits.some((h) => ids.includes(h.documentId))) {
          missed++;
          windowMissed++;
        }
      }
    })();

    const reindex = new ReindexDocumentUseCase(deps);
    const started = now();
    const answer = await reindex.reindexBase(base.id, { chunkSize: 600, chunkOverlap: 0 }, actor);
    console.log(`\nRe-index of the base started: ${answer.started} documents (${answer.skipped} skipped).\n`);
    console.log('| time | base progress | documents switched | searches in the window | p50 | p99 | searches that found nothing of the base |');
    console.log('|---|---|---|---|---|---|---|');
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      const docs = (await documents.listByApplication(base.id, 0, DOCUMENTS)).items;
      const pending = docs.filter((d) => d.pendingGeneration !== null);
      const progress = docs.reduce((sum, d) => sum + (d.pendingGeneration === null ? 100 : (d.pendingProgress ?? 0)), 0) / docs.length;
      const sorted = [...window].sort((a, b) => a - b);
      console.log(
        `| ${((now() - started) / 1000).toFixed(1)} s | ${progress.toFixed(0)}% | ${docs.length - pending.length}/${docs.length} | ${sorted.length} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 99))} | ${windowMissed} |`,
      );
      window = [];
      windowMissed = 0;
      if (pending.length === 0) break;
    }
    const elapsed = now() - started;
    running = false;
    await searching;
    const after = (await documents.listByApplication(base.id, 0, DOCUMENTS)).items;
    const failed = after.filter((d) => d.error);
    all.sort((a, b) => a - b);
    console.log(
      `\nRe-indexed ${chunksBefore.toLocaleString('en')} → ${after.reduce((n, d) => n + d.chunkCount, 0).toLocaleString('en')} chunks in ${(elapsed / 1000).toFixed(1)} s; ${all.length} searches meanwhile, p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}; ${missed} found nothing of the base; ${failed.length} documents failed.`,
    );
    if (missed > 0 || failed.length > 0) process.exitCode = 1;
  } finally {
    await queue.stop();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
