import type { IndexedChunk } from '../../../core/knowledge/ports/vector-index.port';
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
  target: { documentId: string; applicationId: string; space: string },
  chunks: IndexedChunk[],
  column: 'embedding' | 'embedding_vector',
): Promise<void> {
  const cast = column === 'embedding' ? 'real[]' : 'vector';
  for (let start = 0; start < chunks.length; start += ROWS_PER_INSERT) {
    const batch = chunks.slice(start, start + ROWS_PER_INSERT);
    const dimension = batch[0]!.vector.length;
    if (batch.some((c) => c.vector.length !== dimension)) throw new Error('Chunks of one document must share a dimension');
    await db.query(
      `INSERT INTO knowledge_chunks (document_id, application_id, space, dimension, chunk_index, content, token_count, ${column})
       SELECT $1, $2, $3, $4, x.i, x.c, x.t, x.v::${cast}
         FROM unnest($5::int[], $6::text[], $7::int[], $8::text[]) AS x(i, c, t, v)`,
      [
        target.documentId,
        target.applicationId,
        target.space,
        dimension,
        batch.map((c) => c.chunkIndex),
        batch.map((c) => c.content),
        batch.map((c) => c.tokenCount),
        batch.map((c) => vectorLiteral(c.vector, column === 'embedding' ? '{}' : '[]')),
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
}
