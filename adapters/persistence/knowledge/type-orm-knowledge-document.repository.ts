import type { DataSource } from 'typeorm';
import type { DocumentVersion, KnowledgeDocument } from '../../../core/knowledge/domain/knowledge-document';
import type { EmbeddingGroup, KnowledgeDocumentRepository, NewDocumentVersion, NewKnowledgeDocument } from '../../../core/knowledge/ports/knowledge-document-repository.port';
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
  version: number;
  pending_version: number | null;
  pending_progress: number | null;
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
  version: Number(r.version ?? 1),
  pendingVersion: r.pending_version === null || r.pending_version === undefined ? null : Number(r.pending_version),
  pendingProgress: r.pending_progress === null || r.pending_progress === undefined ? null : Number(r.pending_progress),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

interface VersionRow {
  document_id: string;
  version: number;
  file_name: string;
  format: DocumentVersion['format'];
  size_bytes: number;
  storage_key: string;
  content_hash: string | null;
  created_by: string | null;
  restored_from: number | null;
  failure: string | null;
  created_at: Date;
}

const toVersion = (r: VersionRow): DocumentVersion => ({
  documentId: r.document_id,
  version: Number(r.version),
  fileName: r.file_name,
  format: r.format,
  sizeBytes: Number(r.size_bytes),
  storageKey: r.storage_key,
  contentHash: r.content_hash ?? null,
  createdBy: r.created_by ?? null,
  restoredFrom: r.restored_from === null || r.restored_from === undefined ? null : Number(r.restored_from),
  failure: r.failure ?? null,
  createdAt: new Date(r.created_at),
});

/** The pending version's value of a column, for the switch (the document's own when it is a plain re-index). */
const fromPending = (column: string) =>
  `coalesce((SELECT v.${column} FROM knowledge_document_versions v WHERE v.document_id = knowledge_documents.id AND v.version = knowledge_documents.pending_version), ${column})`;

/** State changes touch `updated_at`: it tells a stalled document from one making progress. */
const TOUCH = `updated_at = clock_timestamp()`;

export class TypeOrmKnowledgeDocumentRepository implements KnowledgeDocumentRepository {
  constructor(private readonly db: DataSource) {}

  async create(d: NewKnowledgeDocument): Promise<KnowledgeDocument> {
    // Two uploads of the same file at once: the second meets the first's row.
    // The document and its version 1 in one statement.
    const row = await uniquely(() => one<Row>(
      this.db,
      `WITH d AS (
         INSERT INTO knowledge_documents
           (application_id, file_name, format, size_bytes, storage_key, chunk_size, chunk_overlap, embedding_provider, embedding_model, embedding_dimension, content_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *
       ), v AS (
         INSERT INTO knowledge_document_versions (document_id, version, file_name, format, size_bytes, storage_key, content_hash, created_by)
         SELECT d.id, 1, d.file_name, d.format, d.size_bytes, d.storage_key, d.content_hash, $12 FROM d
       )
       SELECT * FROM d`,
      [d.applicationId, d.fileName, d.format, d.sizeBytes, d.storageKey, d.chunkSize, d.chunkOverlap, d.embeddingProvider, d.embeddingModel, d.embeddingDimension, d.contentHash ?? null, d.createdBy ?? null],
    ), () => 'This file is already in the knowledge base');
    return toDocument(row!);
  }

  async findByContentHash(applicationId: string, contentHash: string): Promise<KnowledgeDocument | null> {
    const row = await one<Row>(this.db, `SELECT * FROM knowledge_documents WHERE application_id = $1 AND content_hash = $2`, [applicationId, contentHash]);
    return row && toDocument(row);
  }

  async findByFileName(applicationId: string, fileName: string): Promise<KnowledgeDocument | null> {
    const row = await one<Row>(this.db, `SELECT * FROM knowledge_documents WHERE application_id = $1 AND file_name = $2 ORDER BY created_at, id LIMIT 1`, [applicationId, fileName]);
    return row && toDocument(row);
  }

  async startReplace(id: string, file: NewDocumentVersion, settings: { chunkSize: number; chunkOverlap: number }): Promise<{ generation: number; version: number } | null> {
    // The next generation and version in the statement that records the version: two replacements at once
    // are serialized by the document's row lock (and a clash on the version number is a 409, not a 500).
    const row = await uniquely(() => one<{ generation: number; version: number }>(
      this.db,
      `WITH d AS (
         UPDATE knowledge_documents
            SET pending_generation = greatest(generation, coalesce(pending_generation, 0)) + 1,
                pending_version = (SELECT coalesce(max(v.version), 0) + 1 FROM knowledge_document_versions v WHERE v.document_id = $1),
                pending_chunk_size = $2, pending_chunk_overlap = $3, pending_progress = 0, error = NULL, ${TOUCH}
          WHERE id = $1 AND status = 'ready' RETURNING id, pending_generation, pending_version
       )
       INSERT INTO knowledge_document_versions (document_id, version, file_name, format, size_bytes, storage_key, content_hash, created_by, restored_from)
       SELECT d.id, d.pending_version, $4, $5, $6, $7, $8, $9, $10 FROM d
       RETURNING version, (SELECT pending_generation FROM d) AS generation`,
      [id, settings.chunkSize, settings.chunkOverlap, file.fileName, file.format, file.sizeBytes, file.storageKey, file.contentHash, file.createdBy, file.restoredFrom],
    ), () => 'Another new version of this document was started at the same moment; try again');
    return row ? { generation: Number(row.generation), version: Number(row.version) } : null;
  }

  async listVersions(id: string): Promise<DocumentVersion[]> {
    return (await rows<VersionRow>(this.db, `SELECT * FROM knowledge_document_versions WHERE document_id = $1 ORDER BY version DESC`, [id])).map(toVersion);
  }

  async findVersion(id: string, version: number): Promise<DocumentVersion | null> {
    const row = await one<VersionRow>(this.db, `SELECT * FROM knowledge_document_versions WHERE document_id = $1 AND version = $2`, [id, version]);
    return row && toVersion(row);
  }

  async setReindexProgress(id: string, generation: number, progress: number): Promise<boolean> {
    return (
      (await affected(this.db, `UPDATE knowledge_documents SET pending_progress = $3, ${TOUCH} WHERE id = $1 AND pending_generation = $2`, [id, generation, clampProgress(progress)])) > 0
    );
  }

  async addChunks(id: string, delta: number): Promise<void> {
    await this.db.query(`UPDATE knowledge_documents SET chunk_count = greatest(0, chunk_count + $2), ${TOUCH} WHERE id = $1`, [id, delta]);
  }

  async startReindex(id: string, settings: { chunkSize: number; chunkOverlap: number }): Promise<number | null> {
    const row = await one<{ pending_generation: number }>(
      this.db,
      `UPDATE knowledge_documents
          SET pending_generation = greatest(generation, coalesce(pending_generation, 0)) + 1, pending_chunk_size = $2, pending_chunk_overlap = $3,
              pending_version = NULL, pending_progress = 0, error = NULL, ${TOUCH}
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
                embedding_model = $4, embedding_dimension = $5,
                file_name = ${fromPending('file_name')}, format = ${fromPending('format')}, size_bytes = ${fromPending('size_bytes')},
                storage_key = ${fromPending('storage_key')}, content_hash = ${fromPending('content_hash')}, version = coalesce(pending_version, version),
                pending_generation = NULL, pending_chunk_size = NULL, pending_chunk_overlap = NULL, pending_version = NULL, pending_progress = NULL, ${TOUCH}
          WHERE id = $1 AND status = 'ready' AND pending_generation = $2`,
        [id, generation, result.chunkCount, result.embeddingModel, result.embeddingDimension],
      )) > 0
    );
  }

  async failReindex(id: string, generation: number, reason: string): Promise<boolean> {
    const row = await one<{ n: number }>(
      this.db,
      `WITH old AS (
         SELECT pending_version FROM knowledge_documents WHERE id = $1 AND pending_generation = $2 FOR UPDATE
       ), d AS (
         UPDATE knowledge_documents
            SET pending_generation = NULL, pending_chunk_size = NULL, pending_chunk_overlap = NULL, pending_version = NULL, pending_progress = NULL, error = $3, ${TOUCH}
          WHERE id = $1 AND pending_generation = $2 RETURNING id
       ), v AS (
         UPDATE knowledge_document_versions SET failure = $4 WHERE document_id = $1 AND version = (SELECT pending_version FROM old) AND EXISTS (SELECT 1 FROM d)
       )
       SELECT count(*)::int AS n FROM d`,
      [id, generation, `Re-indexing failed: ${reason}`.slice(0, 1000), reason.slice(0, 1000)],
    );
    return (row?.n ?? 0) > 0;
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
      // The base's holder: an application's own base is held as its application is.
      `SELECT d.*, COALESCE(a.owner_id, b.owner_id) AS owner_id, COALESCE(a.team_id, b.team_id) AS team_id
         FROM knowledge_documents d JOIN knowledge_bases b ON b.id = d.application_id LEFT JOIN applications a ON a.id = b.application_id
        WHERE d.id = $1`,
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
    // The application's own base and every other base it uses, in one statement (a chat turn's first read).
    return this.groups(`application_id = $1 OR application_id IN (SELECT base_id FROM knowledge_application_bases WHERE application_id = $1)`, applicationId);
  }

  async readyGroupsOfBase(baseId: string): Promise<EmbeddingGroup[]> {
    return this.groups(`application_id = $1`, baseId);
  }

  private async groups(bases: string, id: string): Promise<EmbeddingGroup[]> {
    const found = await rows<{ base_id: string; provider: EmbeddingGroup['provider']; model: string; dimension: number; ids: string[]; names: string[] }>(
      this.db,
      `SELECT application_id AS base_id, embedding_provider AS provider, embedding_model AS model, embedding_dimension AS dimension,
              array_agg(id ORDER BY id) AS ids, array_agg(file_name ORDER BY id) AS names
         FROM knowledge_documents
        WHERE (${bases}) AND status = 'ready' AND chunk_count > 0
        GROUP BY application_id, embedding_provider, embedding_model, embedding_dimension
        ORDER BY embedding_provider, embedding_model, application_id`,
      [id],
    );
    return found.map((g) => ({
      baseId: g.base_id,
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
    const found = await rows<{ storage_key: string }>(
      this.db,
      `SELECT storage_key FROM knowledge_documents WHERE application_id = $1
       UNION SELECT v.storage_key FROM knowledge_document_versions v JOIN knowledge_documents d ON d.id = v.document_id WHERE d.application_id = $1`,
      [applicationId],
    );
    return found.map((r) => r.storage_key);
  }

  async storageKeysByOwner(ownerId: string): Promise<string[]> {
    const found = await rows<{ storage_key: string }>(
      this.db,
      `WITH bases AS (SELECT b.id FROM knowledge_bases b LEFT JOIN applications a ON a.id = b.application_id WHERE COALESCE(a.owner_id, b.owner_id) = $1)
       SELECT d.storage_key FROM knowledge_documents d WHERE d.application_id IN (SELECT id FROM bases)
       UNION SELECT v.storage_key FROM knowledge_document_versions v JOIN knowledge_documents d ON d.id = v.document_id WHERE d.application_id IN (SELECT id FROM bases)`,
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
