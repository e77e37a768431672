import type { ChunkHit, IndexedChunk, IndexTarget } from '../../../core/knowledge/ports/vector-index.port';
import type { Sql } from '../sql';

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
