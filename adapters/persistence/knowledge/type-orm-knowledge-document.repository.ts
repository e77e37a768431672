import type { DataSource } from 'typeorm';
import type { KnowledgeDocument } from '../../../core/knowledge/domain/knowledge-document';
import type { EmbeddingGroup, KnowledgeDocumentRepository, NewKnowledgeDocument } from '../../../core/knowledge/ports/knowledge-document-repository.port';
import { affected, one, rows, uniquely } from '../sql';

interface Row {
  id: string;
  application_id: string;
  file_name: string;
  format: KnowledgeDocument['format'];
  size_bytes: number;
  storage_key: string;
  status: KnowledgeDocument['status'];
  progress: number;
  chunk_count: number;
  error: string | null;
  chunk_size: number;
  chunk_overlap: number;
  embedding_provider: KnowledgeDocument['embeddingProvider'];
  embedding_model: string;
  embedding_dimension: number | null;
  attempts: number;
  content_hash: string | null;
  generation: number;
  pending_generation: number | null;
  pending_chunk_size: number | null;
  pending_chunk_overlap: number | null;
  created_at: Date;
  updated_at: Date;
}

const toDocument = (r: Row): KnowledgeDocument => ({
  id: r.id,
  applicationId: r.application_id,
  fileName: r.file_name,
  format: r.format,
  sizeBytes: Number(r.size_bytes),
  storageKey: r.storage_key,
  status: r.status,
  progress: Number(r.progress),
  chunkCount: Number(r.chunk_count),
  error: r.error,
  chunkSize: Number(r.chunk_size),
  chunkOverlap: Number(r.chunk_overlap),
  embeddingProvider: r.embedding_provider,
  embeddingModel: r.embedding_model,
  embeddingDimension: r.embedding_dimension === null ? null : Number(r.embedding_dimension),
  attempts: Number(r.attempts),
  contentHash: r.content_hash ?? null,
  generation: Number(r.generation ?? 0),
  pendingGeneration: r.pending_generation === null || r.pending_generation === undefined ? null : Number(r.pending_generation),
  pendingChunkSize: r.pending_chunk_size === null || r.pending_chunk_size === undefined ? null : Number(r.pending_chunk_size),
  pendingChunkOverlap: r.pending_chunk_overlap === null || r.pending_chunk_overlap === undefined ? null : Number(r.pending_chunk_overlap),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** State changes touch `updated_at`: it tells a stalled document from one making progress. */
const TOUCH = `updated_at = clock_timestamp()`;

export class TypeOrmKnowledgeDocumentRepository implements KnowledgeDocumentRepository {
  constructor(private readonly db: DataSource) {}

  async create(d: NewKnowledgeDocument): Promise<KnowledgeDocument> {
    // Two uploads of the same file at once: the second meets the first's row.
    const row = await uniquely(() => one<Row>(
      this.db,
      `INSERT INTO knowledge_documents
         (application_id, file_name, format, size_bytes, storage_key, chunk_size, chunk_overlap, embedding_provider, embedding_model, embedding_dimension, content_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [d.applicationId, d.fileName, d.format, d.sizeBytes, d.storageKey, d.chunkSize, d.chunkOverlap, d.embeddingProvider, d.embeddingModel, d.embeddingDimension, d.contentHash ?? null],
    ), () => 'This file is already in the knowledge base');
    return toDocument(row!);
  }

  async findByContentHash(applicationId: string, contentHash: string): Promise<KnowledgeDocument | null> {
    const row = await one<Row>(this.db, `SELECT * FROM knowledge_documents WHERE application_id = $1 AND content_hash = $2`, [applicationId, contentHash]);
    return row && toDocument(row);
  }

  async startReindex(id: string, settings: { chunkSize: number; chunkOverlap: number }): Promise<number | null> {
    const row = await one<{ pending_generation: number }>(
      this.db,
      `UPDATE knowledge_documents
          SET pending_generation = greatest(generation, coalesce(pending_generation, 0)) + 1, pending_chunk_size = $2, pending_chunk_overlap = $3,
              error = NULL, ${TOUCH}
        WHERE id = $1 AND status = 'ready' RETURNING pending_generation`,
      [id, settings.chunkSize, settings.chunkOverlap],
    );
    return row ? Number(row.pending_generation) : null;
  }

  async completeReindex(id: string, generation: number, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }): Promise<boolean> {
    return (
      (await affected(
        this.db,
        `UPDATE knowledge_documents
            SET generation = pending_generation, chunk_size = pending_chunk_size, chunk_overlap = pending_chunk_overlap, chunk_count = $3,
                embedding_model = $4, embedding_dimension = $5, pending_generation = NULL, pending_chunk_size = NULL, pending_chunk_overlap = NULL, ${TOUCH}
          WHERE id = $1 AND status = 'ready' AND pending_generation = $2`,
        [id, generation, result.chunkCount, result.embeddingModel, result.embeddingDimension],
      )) > 0
    );
  }

  async failReindex(id: string, generation: number, reason: string): Promise<boolean> {
    return (
      (await affected(
        this.db,
        `UPDATE knowledge_documents SET pending_generation = NULL, pending_chunk_size = NULL, pending_chunk_overlap = NULL, error = $3, ${TOUCH}
          WHERE id = $1 AND pending_generation = $2`,
        [id, generation, `Re-indexing failed: ${reason}`.slice(0, 1000)],
      )) > 0
    );
  }

  async listReindexing(before: Date): Promise<KnowledgeDocument[]> {
    const found = await rows<Row>(this.db, `SELECT * FROM knowledge_documents WHERE status = 'ready' AND pending_generation IS NOT NULL AND updated_at <= $1 ORDER BY updated_at`, [before]);
    return found.map(toDocument);
  }

  async findById(id: string): Promise<KnowledgeDocument | null> {
    const row = await one<Row>(this.db, `SELECT * FROM knowledge_documents WHERE id = $1`, [id]);
    return row && toDocument(row);
  }

  async findWithOwner(id: string): Promise<{ document: KnowledgeDocument; ownerId: string; teamId?: string | null } | null> {
    const row = await one<Row & { owner_id: string; team_id: string | null }>(
      this.db,
      `SELECT d.*, a.owner_id, a.team_id FROM knowledge_documents d JOIN applications a ON a.id = d.application_id WHERE d.id = $1`,
      [id],
    );
    return row && { document: toDocument(row), ownerId: row.owner_id, ...(row.team_id ? { teamId: row.team_id } : {}) };
  }

  async listByApplication(applicationId: string, offset: number, limit: number): Promise<{ items: KnowledgeDocument[]; total: number }> {
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT * FROM knowledge_documents WHERE application_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [applicationId, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM knowledge_documents WHERE application_id = $1`, [applicationId]),
    ]);
    return { items: items.map(toDocument), total: count?.n ?? 0 };
  }

  async readyGroups(applicationId: string): Promise<EmbeddingGroup[]> {
    const found = await rows<{ provider: EmbeddingGroup['provider']; model: string; dimension: number; ids: string[]; names: string[] }>(
      this.db,
      `SELECT embedding_provider AS provider, embedding_model AS model, embedding_dimension AS dimension,
              array_agg(id ORDER BY id) AS ids, array_agg(file_name ORDER BY id) AS names
         FROM knowledge_documents
        WHERE application_id = $1 AND status = 'ready' AND chunk_count > 0
        GROUP BY embedding_provider, embedding_model, embedding_dimension
        ORDER BY embedding_provider, embedding_model`,
      [applicationId],
    );
    return found.map((g) => ({
      provider: g.provider,
      model: g.model,
      dimension: Number(g.dimension),
      documents: pgArray(g.ids).map((id, i) => ({ id, fileName: pgArray(g.names)[i] ?? '' })),
    }));
  }

  async listProcessing(before: Date): Promise<KnowledgeDocument[]> {
    const found = await rows<Row>(this.db, `SELECT * FROM knowledge_documents WHERE status = 'processing' AND updated_at <= $1 ORDER BY created_at`, [before]);
    return found.map(toDocument);
  }

  async startRun(id: string): Promise<number | null> {
    const row = await one<{ attempts: number }>(
      this.db,
      `UPDATE knowledge_documents SET attempts = attempts + 1, progress = 0, ${TOUCH} WHERE id = $1 AND status = 'processing' RETURNING attempts`,
      [id],
    );
    return row ? Number(row.attempts) : null;
  }

  async setProgress(id: string, progress: number): Promise<boolean> {
    return (await affected(this.db, `UPDATE knowledge_documents SET progress = $2, ${TOUCH} WHERE id = $1 AND status = 'processing'`, [id, clampProgress(progress)])) > 0;
  }

  async markReady(id: string, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }): Promise<boolean> {
    return (
      (await affected(
        this.db,
        `UPDATE knowledge_documents
            SET status = 'ready', progress = 100, error = NULL, chunk_count = $2, embedding_model = $3, embedding_dimension = $4, ${TOUCH}
          WHERE id = $1 AND status = 'processing'`,
        [id, result.chunkCount, result.embeddingModel, result.embeddingDimension],
      )) > 0
    );
  }

  async markError(id: string, reason: string): Promise<boolean> {
    return (await affected(this.db, `UPDATE knowledge_documents SET status = 'error', error = $2, ${TOUCH} WHERE id = $1 AND status = 'processing'`, [id, reason.slice(0, 1000)])) > 0;
  }

  async storageKeysByApplication(applicationId: string): Promise<string[]> {
    const found = await rows<{ storage_key: string }>(this.db, `SELECT storage_key FROM knowledge_documents WHERE application_id = $1`, [applicationId]);
    return found.map((r) => r.storage_key);
  }

  async storageKeysByOwner(ownerId: string): Promise<string[]> {
    const found = await rows<{ storage_key: string }>(
      this.db,
      `SELECT d.storage_key FROM knowledge_documents d JOIN applications a ON a.id = d.application_id WHERE a.owner_id = $1`,
      [ownerId],
    );
    return found.map((r) => r.storage_key);
  }

  async delete(id: string): Promise<KnowledgeDocument | null> {
    const row = await one<Row>(this.db, `DELETE FROM knowledge_documents WHERE id = $1 RETURNING *`, [id]);
    return row && toDocument(row);
  }
}

const clampProgress = (p: number): number => Math.max(0, Math.min(100, Math.round(p)));

/** node-postgres parses uuid[] and text[] into arrays; PGlite may hand back the literal. */
function pgArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  if (inner === '') return [];
  return inner.match(/"(?:[^"\\]|\\.)*"|[^,]+/g)!.map((v) => (v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v));
}
