import { setAsideGeneration, type ChunkHit, type IndexedChunk, type IndexTarget, type StoredChunk } from '../../../core/knowledge/ports/vector-index.port';
import { one, rows, type Sql } from '../sql';
import type { DataSource } from 'typeorm';

/**
 * Chunks per INSERT. Small on purpose: with an HNSW index each row costs milliseconds to insert, and on the
 * embedded PGlite a statement holds the only session, so other requests wait for at most one batch.
 */
const ROWS_PER_INSERT = 32;

/**
 * Inserts chunks with their vectors written as array literals into `column` (`embedding` as real[], or
 * `embedding_vector` as vector), one multi-row statement per batch through unnest.
 */
export async function insertChunks(
  db: Sql,
  target: IndexTarget,
  chunks: IndexedChunk[],
  column: 'embedding' | 'embedding_vector',
): Promise<void> {
  const cast = column === 'embedding' ? 'real[]' : 'vector';
  for (let start = 0; start < chunks.length; start += ROWS_PER_INSERT) {
    const batch = chunks.slice(start, start + ROWS_PER_INSERT);
    const dimension = batch[0]!.vector.length;
    if (batch.some((c) => c.vector.length !== dimension)) throw new Error('Chunks of one document must share a dimension');
    await db.query(
      `INSERT INTO knowledge_chunks (document_id, application_id, space, dimension, generation, chunk_index, content, token_count, page, section, ${column})
       SELECT $1, $2, $3, $4, $5, x.i, x.c, x.t, x.p, x.s, x.v::${cast}
         FROM unnest($6::int[], $7::text[], $8::int[], $9::text[], $10::int[], $11::text[]) AS x(i, c, t, v, p, s)`,
      [
        target.documentId,
        target.applicationId,
        target.space,
        dimension,
        target.generation ?? 0,
        batch.map((c) => c.chunkIndex),
        batch.map((c) => c.content),
        batch.map((c) => c.tokenCount),
        batch.map((c) => vectorLiteral(c.vector, column === 'embedding' ? '{}' : '[]')),
        batch.map((c) => c.page ?? null),
        batch.map((c) => c.section ?? null),
      ],
    );
  }
}

/** `{0.1,0.2}` for real[], `[0.1,0.2]` for vector. Only finite numbers reach here (checked when embedded). */
export function vectorLiteral(vector: readonly number[], brackets: '{}' | '[]'): string {
  for (const x of vector) if (!Number.isFinite(x)) throw new Error('Vectors must hold finite numbers');
  return `${brackets[0]}${vector.join(',')}${brackets[1]}`;
}

export interface ChunkRow {
  document_id: string;
  chunk_index: number;
  content: string;
  token_count: number;
  page: number | null;
  section: string | null;
}

/** A row with its cosine score as a hit; `keyword_score` marks a keyword candidate. */
export function toHit(r: ChunkRow & { keyword_score?: number | null }, score: number): ChunkHit {
  return {
    documentId: r.document_id,
    chunkIndex: Number(r.chunk_index),
    content: r.content,
    tokenCount: Number(r.token_count),
    score: Math.min(1, Math.max(-1, score)),
    page: r.page === null || r.page === undefined ? null : Number(r.page),
    section: r.section ?? null,
    ...(r.keyword_score === null || r.keyword_score === undefined ? {} : { keywordScore: Number(r.keyword_score) }),
  };
}

/** Chunk SQL shared by the indexes: the generation switch and cleanups. */
export async function keepGeneration(db: Sql, documentId: string, generation: number): Promise<void> {
  await db.query(`DELETE FROM knowledge_chunks WHERE document_id = $1 AND generation <> $2`, [documentId, generation]);
}

export async function removeGeneration(db: Sql, documentId: string, generation: number): Promise<void> {
  await db.query(`DELETE FROM knowledge_chunks WHERE document_id = $1 AND generation = $2`, [documentId, generation]);
}

/** The live generation's chunks with the disabled ones (set aside) among them, in order. */
export async function listChunks(db: Sql, documentId: string, generation: number, offset: number, limit: number): Promise<{ items: StoredChunk[]; total: number }> {
  const params = [documentId, generation, setAsideGeneration(generation)];
  const [found, count] = await Promise.all([
    rows<ChunkRow & { generation: number }>(
      db,
      `SELECT chunk_index, content, token_count, page, section, generation FROM knowledge_chunks
        WHERE document_id = $1 AND generation IN ($2, $3) ORDER BY chunk_index LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    ),
    one<{ n: number }>(db, `SELECT count(*)::int AS n FROM knowledge_chunks WHERE document_id = $1 AND generation IN ($2, $3)`, params),
  ]);
  return {
    items: found.map((r) => ({
      chunkIndex: Number(r.chunk_index), content: r.content, tokenCount: Number(r.token_count),
      page: r.page === null || r.page === undefined ? null : Number(r.page), section: r.section ?? null, enabled: Number(r.generation) >= 0,
    })),
    total: count?.n ?? 0,
  };
}

/**
 * Deletes the chunk and inserts its new text in one transaction: the word counts' triggers (insert and
 * delete only) stay right, and a search sees the old chunk or the new one.
 */
export async function replaceChunk(db: DataSource, target: IndexTarget & { generation: number }, chunk: IndexedChunk, column: 'embedding' | 'embedding_vector'): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await rows<{ generation: number }>(
      tx,
      `DELETE FROM knowledge_chunks WHERE document_id = $1 AND chunk_index = $2 AND generation IN ($3, $4) RETURNING generation`,
      [target.documentId, chunk.chunkIndex, target.generation, setAsideGeneration(target.generation)],
    );
    if (gone.length === 0) return false;
    await insertChunks(tx, { ...target, generation: Number(gone[0]!.generation) }, [chunk], column);
    return true;
  });
}

/** Numbers the chunk past the document's last one under the document's row lock, so two additions never clash. */
export async function appendChunk(db: DataSource, target: IndexTarget & { generation: number }, chunk: Omit<IndexedChunk, 'chunkIndex'>, column: 'embedding' | 'embedding_vector'): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT 1 FROM knowledge_documents WHERE id = $1 FOR UPDATE`, [target.documentId]);
    const next = await one<{ n: number }>(
      tx,
      `SELECT coalesce(max(chunk_index), -1) + 1 AS n FROM knowledge_chunks WHERE document_id = $1 AND generation IN ($2, $3)`,
      [target.documentId, target.generation, setAsideGeneration(target.generation)],
    );
    const chunkIndex = Number(next!.n);
    await insertChunks(tx, target, [{ ...chunk, chunkIndex }], column);
    return chunkIndex;
  });
}

export async function setChunkEnabled(db: Sql, documentId: string, generation: number, chunkIndex: number, enabled: boolean): Promise<boolean> {
  const found = await rows<{ chunk_index: number }>(
    db,
    `UPDATE knowledge_chunks SET generation = $4 WHERE document_id = $1 AND chunk_index = $2 AND generation IN ($3, $5) RETURNING chunk_index`,
    [documentId, chunkIndex, generation, enabled ? generation : setAsideGeneration(generation), setAsideGeneration(generation)],
  );
  return found.length > 0;
}
