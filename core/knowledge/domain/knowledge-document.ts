import type { DocumentFormat } from './document-format';

/** SPEC 3: a document is processed in the background, then `ready` (searchable) or `error`. */
export type DocumentStatus = 'processing' | 'ready' | 'error';

/** Who turns text into vectors: the built-in offline embedder, or a provider with embeddings. */
export const EMBEDDING_PROVIDERS = ['local', 'provider_a', 'provider_c', 'provider_d'] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];

export const isEmbeddingProvider = (value: unknown): value is EmbeddingProvider =>
  typeof value === 'string' && (EMBEDDING_PROVIDERS as readonly string[]).includes(value);

export interface KnowledgeDocument {
  id: string;
  /**
   * The base holding it (the column keeps its first name): for an application's own base, the
   * application's id.
   */
  applicationId: string;
  fileName: string;
  format: DocumentFormat;
  sizeBytes: number;
  /** Where the FileStore keeps the source, for (re)processing. */
  storageKey: string;
  status: DocumentStatus;
  /** 0 to 100 while processing; 100 once ready. */
  progress: number;
  chunkCount: number;
  /** Why processing failed, in words a user can act on. */
  error: string | null;
  chunkSize: number;
  chunkOverlap: number;
  embeddingProvider: EmbeddingProvider;
  /** The model asked for (or the provider's default); the one that answered is recorded once known. */
  embeddingModel: string;
  embeddingDimension: number | null;
  /** Processing runs started so far, retries and resumes after a restart included. */
  attempts: number;
  /** SHA-256 of the uploaded bytes (hex): the same file twice in one application is recognised. */
  contentHash: string | null;
  /** The chunks search reads; a re-index writes `pendingGeneration` beside them and then switches. */
  generation: number;
  /** A re-index under way: its generation and chunk settings; null otherwise. */
  pendingGeneration: number | null;
  pendingChunkSize: number | null;
  pendingChunkOverlap: number | null;
  /** The version (file) whose chunks search reads, from 1. */
  version: number;
  /** A replacement or rollback under way: the version being built as `pendingGeneration`. */
  pendingVersion: number | null;
  /** 0 to 100: how far a re-index or replacement has got. */
  pendingProgress: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One file a document has held: who uploaded it, when, its size and checksum. */
export interface DocumentVersion {
  documentId: string;
  version: number;
  fileName: string;
  format: DocumentFormat;
  sizeBytes: number;
  storageKey: string;
  contentHash: string | null;
  createdBy: string | null;
  /** A rollback: the version whose file this one brought back. */
  restoredFrom: number | null;
  /** Why building it failed (the document kept the version it had). */
  failure: string | null;
  createdAt: Date;
}

export type VersionState = 'current' | 'replacing' | 'failed' | 'previous';

export interface DocumentVersionView {
  version: number;
  fileName: string;
  format: DocumentFormat;
  size: number;
  contentHash: string | null;
  createdBy: string | null;
  restoredFrom: number | null;
  state: VersionState;
  failure: string | null;
  createdAt: string;
}

export const toVersionView = (v: DocumentVersion, d: Pick<KnowledgeDocument, 'version' | 'pendingVersion'>): DocumentVersionView => ({
  version: v.version,
  fileName: v.fileName,
  format: v.format,
  size: v.sizeBytes,
  contentHash: v.contentHash,
  createdBy: v.createdBy,
  restoredFrom: v.restoredFrom,
  state: v.version === d.version ? 'current' : v.version === d.pendingVersion ? 'replacing' : v.failure ? 'failed' : 'previous',
  failure: v.failure,
  createdAt: v.createdAt.toISOString(),
});

/** Vectors of different models never meet: search compares a query only within one space. */
export const embeddingSpace = (provider: EmbeddingProvider, model: string): string => `${provider}:${model}`;

export interface KnowledgeDocumentView {
  id: string;
  /** The base holding it; for an application's own base, the application's id. */
  baseId: string;
  /** The same id, named as the per-application routes have always named it. */
  applicationId: string;
  fileName: string;
  format: DocumentFormat;
  size: number;
  status: DocumentStatus;
  progress: number;
  chunkCount: number;
  error: string | null;
  chunkSize: number;
  chunkOverlap: number;
  embeddingProvider: EmbeddingProvider;
  embeddingModel: string;
  embeddingDimension: number | null;
  /** SHA-256 of the file (hex). */
  contentHash: string | null;
  /** The version search reads. */
  version: number;
  /**
   * A re-index (or, with `version`, a replacement) under way with these settings and its progress; the
   * document stays searchable with its current chunks until the switch.
   */
  reindexing: { chunkSize: number; chunkOverlap: number; progress: number; version: number | null } | null;
  createdAt: string;
  updatedAt: string;
}

export const toDocumentView = (d: KnowledgeDocument): KnowledgeDocumentView => ({
  id: d.id,
  baseId: d.applicationId,
  applicationId: d.applicationId,
  fileName: d.fileName,
  format: d.format,
  size: d.sizeBytes,
  status: d.status,
  progress: d.progress,
  chunkCount: d.chunkCount,
  error: d.error,
  chunkSize: d.chunkSize,
  chunkOverlap: d.chunkOverlap,
  embeddingProvider: d.embeddingProvider,
  embeddingModel: d.embeddingModel,
  embeddingDimension: d.embeddingDimension,
  contentHash: d.contentHash,
  version: d.version,
  reindexing:
    d.pendingGeneration === null
      ? null
      : { chunkSize: d.pendingChunkSize ?? d.chunkSize, chunkOverlap: d.pendingChunkOverlap ?? d.chunkOverlap, progress: d.pendingProgress ?? 0, version: d.pendingVersion },
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});
