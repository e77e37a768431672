import type { EmbeddingProvider, KnowledgeDocument } from '../domain/knowledge-document';

export type NewKnowledgeDocument = Pick<
  KnowledgeDocument,
  'applicationId' | 'fileName' | 'format' | 'sizeBytes' | 'storageKey' | 'chunkSize' | 'chunkOverlap' | 'embeddingProvider' | 'embeddingModel' | 'embeddingDimension'
> & { contentHash?: string | null };

/** Ready documents that share an embedding model: a query is compared within one such group. */
export interface EmbeddingGroup {
  provider: EmbeddingProvider;
  model: string;
  dimension: number;
  documents: Array<{ id: string; fileName: string }>;
}

/**
 * Knowledge documents and their processing state. State changes only apply to a document still
 * `processing` (they answer false otherwise), so a deleted or finished document is never revived.
 */
export interface KnowledgeDocumentRepository {
  create(document: NewKnowledgeDocument): Promise<KnowledgeDocument>;
  findById(id: string): Promise<KnowledgeDocument | null>;
  /** The document with its application's owner, for ownership checks and keys in one query. */
  /** With its application's owner and team (null or absent for a personal application). */
  findWithOwner(id: string): Promise<{ document: KnowledgeDocument; ownerId: string; teamId?: string | null } | null>;
  /** Newest first. */
  listByApplication(applicationId: string, offset: number, limit: number): Promise<{ items: KnowledgeDocument[]; total: number }>;
  readyGroups(applicationId: string): Promise<EmbeddingGroup[]>;
  /** Documents still processing and unchanged since `before`: interrupted work to pick up again. */
  listProcessing(before: Date): Promise<KnowledgeDocument[]>;
  /** Counts a new processing run and answers the runs so far; null when not processing (any more). */
  startRun(id: string): Promise<number | null>;
  setProgress(id: string, progress: number): Promise<boolean>;
  markReady(id: string, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }): Promise<boolean>;
  markError(id: string, reason: string): Promise<boolean>;
  /** The application's document with this content hash, if any. */
  findByContentHash(applicationId: string, contentHash: string): Promise<KnowledgeDocument | null>;
  /**
   * Starts a re-index of a ready document with new chunk settings: the next generation (past any re-index
   * still under way, which thereby loses); null when the document is not ready.
   */
  startReindex(id: string, settings: { chunkSize: number; chunkOverlap: number }): Promise<number | null>;
  /**
   * Makes `generation` live, with its chunk count and settings, in one statement; false when the document
   * is gone, not ready, or another re-index replaced this one.
   */
  completeReindex(id: string, generation: number, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }): Promise<boolean>;
  /** Gives up re-index `generation` (the live chunks stay), recording why on the document. */
  failReindex(id: string, generation: number, reason: string): Promise<boolean>;
  /** Ready documents with a re-index under way and unchanged since `before`: interrupted work. */
  listReindexing(before: Date): Promise<KnowledgeDocument[]>;
  /** Where the FileStore keeps the sources of the application's documents (removed with the application). */
  storageKeysByApplication(applicationId: string): Promise<string[]>;
  /** The same for every application of the owner (removed with the account). */
  storageKeysByOwner(ownerId: string): Promise<string[]>;
  /** Deletes the document (its chunks go with it); the deleted row, or null when there was none. */
  delete(id: string): Promise<KnowledgeDocument | null>;
}
