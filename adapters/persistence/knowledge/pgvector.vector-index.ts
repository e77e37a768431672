import type { DataSource } from 'typeorm';
import type { ChunkHit, IndexedChunk, VectorIndex, VectorQuery } from '../../../core/knowledge/ports/vector-index.port';
import { one, rows } from '../sql';
import { insertChunks, vectorLiteral, type ChunkRow } from './chunk-rows';

export interface PgvectorOptions {
  /** Candidates HNSW keeps while searching: higher is more accurate and slower (pgvector's default is 40). */
  efSearch?: number;
}

/**
 * pgvector: the untyped `embedding_vector` column, with a partial HNSW index (cosine) per common dimension
 * on the column cast to it (see the migration). A query of an indexed dimension walks that index, with
 * iterative scans so the application and document filters cannot starve the result; other dimensions are
 * an exact scan of the application's chunks.
 */
export class PgvectorVectorIndex implements VectorIndex {
  readonly strategy = 'hnsw' as const;

  private constructor(
    private readonly db: DataSource,
    private readonly indexed: ReadonlySet<number>,
    private readonly efSearch: number,
  ) {}

  /** Reads which dimensions have an HNSW index, so queries name the exact expression each index is on. */
  static async open(db: DataSource, options: PgvectorOptions = {}): Promise<PgvectorVectorIndex> {
    const indexes = await rows<{ indexname: string }>(
      db,
      `SELECT indexname FROM pg_indexes WHERE tablename = 'knowledge_chunks' AND schemaname = current_schema() AND indexname LIKE 'knowledge_chunks_hnsw_%'`,
    );
    const dimensions = indexes.map((i) => Number(/_(\d+)$/.exec(i.indexname)?.[1])).filter((d) => Number.isInteger(d) && d > 0);
    return new PgvectorVectorIndex(db, new Set(dimensions), options.efSearch ?? 100);
  }

  async add(target: { documentId: string; applicationId: string; space: string }, chunks: IndexedChunk[]): Promise<void> {
    await insertChunks(this.db, target, chunks, 'embedding_vector');
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    if (q.documentIds.length === 0 || q.limit < 1) return [];
    const dimension = q.vector.length;
    // The dimension is a number we checked, written into the SQL so the planner can match the partial index.
    if (!Number.isInteger(dimension) || dimension < 1) return [];
    const column = this.indexed.has(dimension) ? `(embedding_vector::vector(${dimension}))` : 'embedding_vector';
    const query = this.indexed.has(dimension) ? `$1::vector(${dimension})` : '$1::vector';
    const sql = `SELECT document_id, chunk_index, content, token_count, ${column} <=> ${query} AS distance
                   FROM knowledge_chunks
                  WHERE dimension = ${dimension} AND application_id = $2 AND space = $3 AND document_id = ANY($4::uuid[])
                  ORDER BY ${column} <=> ${query}
                  LIMIT $5`;
    const params = [vectorLiteral(q.vector, '[]'), q.applicationId, q.space, q.documentIds, q.limit];
    const found = await this.db.transaction(async (tx) => {
      // One round trip for both settings; they last until the end of this transaction only.
      await tx.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(this.efSearch, q.limit))}; SET LOCAL hnsw.iterative_scan = relaxed_order`);
      return rows<ChunkRow & { distance: number }>(tx, sql, params);
    });
    const minScore = q.minScore ?? -Infinity;
    return found
      .map((r) => ({ documentId: r.document_id, chunkIndex: Number(r.chunk_index), content: r.content, tokenCount: Number(r.token_count), score: clamp(1 - Number(r.distance)) }))
      .filter((hit) => hit.score >= minScore)
      // Relaxed iterative scans may return a near-tie out of order.
      .sort((a, b) => b.score - a.score || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
  }

  async removeDocument(documentId: string): Promise<void> {
    await this.db.query(`DELETE FROM knowledge_chunks WHERE document_id = $1`, [documentId]);
  }
}

const clamp = (score: number): number => Math.min(1, Math.max(-1, score));

/** The migration gave chunks an `embedding_vector` column only where pgvector was installed. */
export async function hasPgvectorColumn(db: DataSource): Promise<boolean> {
  const found = await one(
    db,
    `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'knowledge_chunks' AND column_name = 'embedding_vector'`,
  );
  return found !== null;
}
