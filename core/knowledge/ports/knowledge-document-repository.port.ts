import type { DocumentVersion, EmbeddingProvider, KnowledgeDocument } from '../domain/knowledge-document';

export type NewKnowledgeDocument = Pick<
  KnowledgeDocument,
  'applicationId' | 'fileName' | 'format' | 'sizeBytes' | 'storageKey' | 'chunkSize' | 'chunkOverlap' | 'embeddingProvider' | 'embeddingModel' | 'embeddingDimension'
> & { contentHash?: string | null; createdBy?: string | null };

/** A new file for a document: it becomes the next version. */
export type NewDocumentVersion = Pick<DocumentVersion, 'fileName' | 'format' | 'sizeBytes' | 'storageKey' | 'contentHash' | 'createdBy' | 'restoredFrom'>;

/** Ready documents that share an embedding model: a query is compared within one such group. */
export interface EmbeddingGroup {
  /** The base the documents are in (absent: the application's own). */
  baseId?: string;
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
  /**
   * With its base's owner and team (null or absent for a personal base), for ownership checks and keys in one
   * query; an application's own base is held as its application is.
   */
  findWithOwner(id: string): Promise<{ document: KnowledgeDocument; ownerId: string; teamId?: string | null } | null>;
  /** Newest first. */
  listByApplication(applicationId: string, offset: number, limit: number): Promise<{ items: KnowledgeDocument[]; total: number }>;
  /** The ready documents of every base the application uses (its own and the others), grouped by base and embedding model. */
  readyGroups(applicationId: string): Promise<EmbeddingGroup[]>;
  /** The same for one base. */
  readyGroupsOfBase(baseId: string): Promise<EmbeddingGroup[]>;
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
   * Makes `generation` live, with its chunk count and settings (and its version's file, for a
   * replacement), in one statement; false when the document
   * is gone, not ready, or another re-index replaced this one.
   */
  completeReindex(id: string, generation: number, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }): Promise<boolean>;
  /** Gives up re-index `generation` (the live chunks stay), recording why on the document (and on its version). */
  failReindex(id: string, generation: number, reason: string): Promise<boolean>;
  /** Ready documents with a re-index under way and unchanged since `before`: interrupted work. */
  listReindexing(before: Date): Promise<KnowledgeDocument[]>;
  /** The application's (oldest) document with this file name. */
  findByFileName(applicationId: string, fileName: string): Promise<KnowledgeDocument | null>;
  /**
   * Starts replacing a ready document's file: stores `file` as the next version and the next generation
   * to build (past any re-index or replacement still under way, which thereby loses), with these chunk
   * settings. Null when the document is not ready.
   */
  startReplace(id: string, file: NewDocumentVersion, settings: { chunkSize: number; chunkOverlap: number }): Promise<{ generation: number; version: number } | null>;
  /** The document's versions, newest first. */
  listVersions(id: string): Promise<DocumentVersion[]>;
  findVersion(id: string, version: number): Promise<DocumentVersion | null>;
  /** How far re-index `generation` has got; false when it is no longer the one under way. */
  setReindexProgress(id: string, generation: number, progress: number): Promise<boolean>;
  /** Adds `delta` to the live chunk count (a chunk added by hand). */
  addChunks(id: string, delta: number): Promise<void>;
  /** Where the FileStore keeps the sources of the application's documents, every version's (removed with the application). */
  storageKeysByApplication(applicationId: string): Promise<string[]>;
  /** The same for every application of the owner (removed with the account). */
  storageKeysByOwner(ownerId: string): Promise<string[]>;
  /** Deletes the document (its chunks go with it); the deleted row, or null when there was none. */
  delete(id: string): Promise<KnowledgeDocument | null>;
}
