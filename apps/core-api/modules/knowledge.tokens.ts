import type { DocumentReadyListener } from '../../../core/knowledge/ports/document-ready-listener.port';
import type { DeferredVectorIndex } from '../../../adapters/persistence/knowledge/open-vector-index';
import type { EmbedderRegistry } from '../../../core/knowledge/ports/embedder-registry.port';
import type { EmbeddingKeySource } from '../../../core/knowledge/ports/embedding-key-source.port';
import type { DocumentParser } from '../../../core/knowledge/ports/document-parser.port';
import type { KnowledgeBaseRepository } from '../../../core/knowledge/ports/knowledge-base-repository.port';
import type { KnowledgeDocumentRepository } from '../../../core/knowledge/ports/knowledge-document-repository.port';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import type { Reranker } from '../../../core/knowledge/ports/reranker.port';
import type { RetrievalSettingsRepository } from '../../../core/knowledge/ports/retrieval-settings-repository.port';
import { token } from '../../shared/tokens';

export const KNOWLEDGE_TOKENS = {
  DocumentRepository: token<KnowledgeDocumentRepository>('KnowledgeDocumentRepository'),
  VectorIndex: token<DeferredVectorIndex>('VectorIndex'),
  EmbedderRegistry: token<EmbedderRegistry>('EmbedderRegistry'),
  EmbeddingKeySource: token<EmbeddingKeySource>('EmbeddingKeySource'),
  /** Reads the text of JSON, CSV, HTML and XML documents (kept libraries; XML DOCTYPEs refused). */
  DocumentParser: token<DocumentParser>('DocumentParser'),
  /** The process's background job queue: in-process, or BullMQ when REDIS_URL is set. */
  JobQueue: token<JobQueue>('JobQueue'),
  /** Multi-binding: areas told when a document becomes ready (the plugins' `knowledge:documentReady`). */
  DocumentReadyListener: token<DocumentReadyListener>('DocumentReadyListener'),
  KnowledgeBaseRepository: token<KnowledgeBaseRepository>('KnowledgeBaseRepository'),
  RetrievalSettingsRepository: token<RetrievalSettingsRepository>('RetrievalSettingsRepository'),
  /** The reranker when RERANK_URL is set, else null (the retrieval settings' `rerank` then has no effect). */
  Reranker: token<Reranker | null>('Reranker'),
} as const;
