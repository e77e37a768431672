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
  createdAt: Date;
  updatedAt: Date;
}

/** Vectors of different models never meet: search compares a query only within one space. */
export const embeddingSpace = (provider: EmbeddingProvider, model: string): string => `${provider}:${model}`;

export interface KnowledgeDocumentView {
  id: string;
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
  /** A re-index under way with these settings (the document stays searchable with its current chunks). */
  reindexing: { chunkSize: number; chunkOverlap: number } | null;
  createdAt: string;
  updatedAt: string;
}

export const toDocumentView = (d: KnowledgeDocument): KnowledgeDocumentView => ({
  id: d.id,
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
  reindexing: d.pendingGeneration === null ? null : { chunkSize: d.pendingChunkSize ?? d.chunkSize, chunkOverlap: d.pendingChunkOverlap ?? d.chunkOverlap },
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});
