import type { DocumentReadyListener } from '../ports/document-ready-listener.port';
import { isAppError } from '../../shared/errors';
import type { FileStore } from '../../uploads/ports/file-store.port';
import { chunkSections, type LocatedChunk } from '../domain/chunker';
import { embeddingSpace, type KnowledgeDocument } from '../domain/knowledge-document';
import type { DocumentParser } from '../ports/document-parser.port';
import type { EmbedderRegistry } from '../ports/embedder-registry.port';
import type { EmbeddingKeySource } from '../ports/embedding-key-source.port';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import type { VectorIndex } from '../ports/vector-index.port';
import { embedForOwner } from './embed-texts';
import { readDocument } from './read-document';

export const PROCESS_DOCUMENT_JOB = 'knowledge.process-document';
export interface ProcessDocumentJob {
  documentId: string;
  /** A re-index: the generation to build (with the document's pending chunk settings) and switch to. */
  generation?: number;
}

/** The queue's id of a job: one per document, and one per re-index generation (BullMQ refuses ":" in ids). */
export const processJobId = (job: ProcessDocumentJob): string => (job.generation === undefined ? job.documentId : `${job.documentId}-g${job.generation}`);

export interface ProcessDocumentDeps {
  documents: KnowledgeDocumentRepository;
  files: FileStore;
  index: VectorIndex;
  embedders: EmbedderRegistry;
  keys: EmbeddingKeySource;
  parser: DocumentParser;
  /** Told once a document is ready (plugins' `knowledge:documentReady`). */
  readyListeners?: DocumentReadyListener[];
  /** Chunks per embedding call. */
  batchSize?: number;
  /** One run may take this long before it is abandoned (and retried). */
  runTimeoutMs?: number;
}

/** A failure that another attempt cannot fix: the document is marked `error` at once, without retries. */
class PermanentFailure extends Error {}

const PARSED = 10;
const EMBEDDED = 99;

/**
 * The background half of ingestion: parse, chunk, embed in batches (reporting progress) and index, then
 * `ready`. Content problems and refused keys end in `error` at once; other failures are thrown for the
 * job queue to retry, and `failureReason` words the last one. A document deleted meanwhile ends the run.
 */
export class ProcessDocumentUseCase {
  constructor(private readonly deps: ProcessDocumentDeps) {}

  async execute(job: ProcessDocumentJob): Promise<void> {
    if (job.generation !== undefined) return this.reindex(job.documentId, job.generation);
    const found = await this.deps.documents.findWithOwner(job.documentId);
    if (!found || found.document.status !== 'processing') return;
    const { document, ownerId } = found;
    if ((await this.deps.documents.startRun(document.id)) === null) return;
    try {
      await this.run(document, ownerId);
    } catch (error) {
      if (!(error instanceof PermanentFailure)) throw error;
      await this.deps.documents.markError(document.id, error.message);
    }
  }

  /** The job's last attempt failed: the document ends in `error`, or a re-index is given up (the live chunks stay). */
  async failed(job: ProcessDocumentJob, error: unknown): Promise<void> {
    if (job.generation === undefined) {
      await this.deps.documents.markError(job.documentId, failureReason(error));
      return;
    }
    await this.deps.documents.failReindex(job.documentId, job.generation, failureReason(error));
    await this.deps.index.removeGeneration(job.documentId, job.generation);
  }

  /**
   * Builds generation `generation` of a ready document with its pending chunk settings beside the live
   * chunks, then switches to it in one statement and drops the old ones: search finds the document
   * throughout. A newer re-index, a deletion or a failure leaves the live chunks as they were.
   */
  private async reindex(documentId: string, generation: number): Promise<void> {
    const found = await this.deps.documents.findWithOwner(documentId);
    const document = found?.document;
    if (!found || !document || document.status !== 'ready' || document.pendingGeneration !== generation) return;
    const { documents, index } = this.deps;
    try {
      const settings = { chunkSize: document.pendingChunkSize ?? document.chunkSize, chunkOverlap: document.pendingChunkOverlap ?? document.chunkOverlap };
      // A replacement (or rollback) builds its version's file; a plain re-index the current one.
      const source = document.pendingVersion === null ? document : await documents.findVersion(document.id, document.pendingVersion);
      if (!source) throw new PermanentFailure('The new version of the file is no longer stored; upload it again');
      const chunks = await this.chunksOf(source, settings);
      await index.removeGeneration(document.id, generation); // what an interrupted attempt left
      await documents.setReindexProgress(document.id, generation, PARSED);
      let done = 0;
      const embedded = await this.embedAndIndex(document, found.ownerId, chunks, generation, async (count) => {
        done += count;
        return documents.setReindexProgress(document.id, generation, PARSED + Math.floor(((EMBEDDED - PARSED) * done) / chunks.length));
      });
      if (!embedded) return;
      if (!(await documents.completeReindex(document.id, generation, { chunkCount: chunks.length, ...embedded }))) {
        await index.removeGeneration(document.id, generation);
        return;
      }
      await index.keepGeneration(document.id, generation);
    } catch (error) {
      if (!(error instanceof PermanentFailure)) throw error;
      await documents.failReindex(document.id, generation, error.message);
      await index.removeGeneration(document.id, generation);
    }
  }

  private async run(document: KnowledgeDocument, ownerId: string): Promise<void> {
    const { documents, index } = this.deps;
    const chunks = await this.chunksOf(document, document);
    if (!(await documents.setProgress(document.id, PARSED))) return;
    // Chunks left by an interrupted run would be counted twice.
    await index.removeDocument(document.id);
    let done = 0;
    const embedded = await this.embedAndIndex(document, ownerId, chunks, 0, async (count) => {
      done += count;
      return documents.setProgress(document.id, PARSED + Math.floor(((EMBEDDED - PARSED) * done) / chunks.length));
    });
    if (!embedded) return;
    await documents.markReady(document.id, { chunkCount: chunks.length, ...embedded });
    const ready = { id: document.id, applicationId: document.applicationId, fileName: document.fileName, chunkCount: chunks.length, status: 'ready' as const };
    for (const listener of this.deps.readyListeners ?? []) listener.documentReady(ready);
  }

  /**
   * Embeds the chunks in batches (each with its own key) and adds them to the index as `generation`;
   * `proceed` is asked after every batch (with its size) and stops the work when it answers false, as when
   * the document was deleted. Answers the model and dimension that embedded them, or null when stopped.
   */
  private async embedAndIndex(
    document: KnowledgeDocument,
    ownerId: string,
    chunks: LocatedChunk[],
    generation: number,
    proceed: (count: number) => Promise<boolean>,
  ): Promise<{ embeddingModel: string; embeddingDimension: number } | null> {
    const { documents, index } = this.deps;
    const embedder = permanent(() => this.deps.embedders.get(document.embeddingProvider, document.embeddingModel));
    const noKey = () => new PermanentFailure(`No API key is available for ${document.embeddingProvider} any more; save your own key and upload the document again`);
    const target = { documentId: document.id, applicationId: document.applicationId, space: embeddingSpace(document.embeddingProvider, embedder.model), generation };
    const signal = AbortSignal.timeout(this.deps.runTimeoutMs ?? 10 * 60_000);
    const batchSize = this.deps.batchSize ?? 64;
    let dimension: number | undefined;
    for (let start = 0; start < chunks.length; start += batchSize) {
      const batch = chunks.slice(start, start + batchSize);
      // Each batch takes its key (and, on the platform's key, its share of the owner's plan) for itself.
      const owner = { keys: this.deps.keys, ownerId, provider: document.embeddingProvider, signal, dimension, noKey };
      const vectors = await embedForOwner(embedder, batch.map((c) => c.content), owner).catch(refusedKeyIsPermanent);
      dimension ??= vectors[0]!.length;
      try {
        await index.add(target, batch.map((c, i) => ({ chunkIndex: c.index, content: c.content, tokenCount: c.tokenCount, vector: vectors[i]!, page: c.page, section: c.section })));
      } catch (error) {
        if (!(await documents.findById(document.id))) return null;
        throw error;
      }
      if (!(await proceed(batch.length))) return null;
    }
    return { embeddingModel: embedder.model, embeddingDimension: dimension! };
  }

  private async chunksOf(document: { storageKey: string; fileName: string }, settings: { chunkSize: number; chunkOverlap: number }): Promise<LocatedChunk[]> {
    const bytes = await this.deps.files.read(document.storageKey).catch((error: unknown) => {
      if (isAppError(error) && error.kind === 'not_found') throw new PermanentFailure('The uploaded file is no longer stored; upload the document again');
      throw error;
    });
    const parsed = await permanentAsync(() => readDocument(this.deps.parser, bytes, document.fileName));
    const chunks = permanent(() => chunkSections(parsed.sections, { chunkSize: settings.chunkSize, chunkOverlap: settings.chunkOverlap }));
    if (chunks.length === 0) throw new PermanentFailure('The document has no text');
    return chunks;
  }
}

const isContentError = (error: unknown): error is Error =>
  isAppError(error) && (error.kind === 'validation' || error.kind === 'unsupported_media_type' || error.kind === 'payload_too_large');

/** Content and settings errors from the core are the document's, not the moment's. */
function permanent<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (isContentError(error)) throw new PermanentFailure(error.message);
    throw error;
  }
}

async function permanentAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isContentError(error)) throw new PermanentFailure(error.message);
    throw error;
  }
}

/**
 * A provider that refuses the key or the request will refuse it again, and a plan that refuses platform
 * usage (or whose tokens are used up) stays so until the owner acts; anything else may pass on retry.
 */
function refusedKeyIsPermanent(error: unknown): never {
  if (error instanceof PermanentFailure) throw error;
  if (isAppError(error) && error.kind === 'payment_required') throw new PermanentFailure(error.message);
  if (isAppError(error) && error.kind === 'upstream_failure' && 'status' in error && (error.status === 400 || error.status === 424)) {
    throw new PermanentFailure(`Embedding failed: ${error.message}`);
  }
  throw error;
}

/** The reason recorded when the last attempt failed: a core error's own words, never internals. */
export function failureReason(error: unknown): string {
  if (isAppError(error)) return `Processing failed after several attempts: ${error.message}`;
  if (error instanceof Error && error.name === 'TimeoutError') return 'Processing took too long and was stopped';
  return 'Processing failed because of an internal error; upload the document again';
}
