import type { DataSource } from 'typeorm';
import type { ChunkHit, IndexedChunk, VectorIndex, VectorQuery } from '../../../core/knowledge/ports/vector-index.port';
import { one, rows } from '../sql';
import { insertChunks, vectorLiteral, type ChunkRow } from './chunk-rows';

export const DEFAULT_EF_SEARCH = 100;
/** Up to this many candidate chunks, an exact scan is about as fast as the index and never misses. */
export const DEFAULT_EXACT_BELOW = 2000;
/**
 * Past exactBelow, the smallest documents up to this many chunks together are still compared exactly and
 * only the rest go through the index: HNSW misses outliers, and a small document on its own subject (a
 * refund policy beside a large handbook) is one. About 2 ms of exact comparisons at 100,000 chunks.
 */
export const DEFAULT_SMALL_BELOW = 1000;
const MAX_INT = 2_147_483_647;

export interface PgvectorOptions {
  /**
   * Candidates HNSW keeps while searching: higher is more accurate and slower (pgvector's default is 40).
   * At 100 the benchmark's 100,000 chunks answer within 20 ms at p99; see docs/benchmarks/knowledge.md
   * for the recall of each setting.
   */
  efSearch?: number;
  /** Candidates up to which the search compares every chunk instead of walking the index. */
  exactBelow?: number;
  /** Past exactBelow: chunks of the smallest documents, together, that are still compared exactly. */
  smallBelow?: number;
}

/**
 * pgvector: the untyped `embedding_vector` column, with a partial HNSW index (cosine) per common dimension
 * on the column cast to it (see the migration). A query with many candidates in an indexed dimension walks
 * that index for its large documents, with iterative scans so the application and document filters cannot
 * starve the result, and compares the chunks of its smallest documents exactly (HNSW misses outliers such
 * as a short document on a subject of its own); a query with few candidates (by the ready documents' chunk
 * counts), or of another dimension, compares them all exactly.
 */
export class PgvectorVectorIndex implements VectorIndex {
  readonly strategy = 'hnsw' as const;

  private constructor(
    private readonly db: DataSource,
    private readonly indexed: ReadonlySet<number>,
    private readonly efSearch: number,
    private readonly exactBelow: number,
    private readonly smallBelow: number,
  ) {}

  /** Reads which dimensions have an HNSW index, so queries name the exact expression each index is on. */
  static async open(db: DataSource, options: PgvectorOptions = {}): Promise<PgvectorVectorIndex> {
    const indexes = await rows<{ indexname: string }>(
      db,
      `SELECT indexname FROM pg_indexes WHERE tablename = 'knowledge_chunks' AND schemaname = current_schema() AND indexname LIKE 'knowledge_chunks_hnsw_%'`,
    );
    const dimensions = indexes.map((i) => Number(/_(\d+)$/.exec(i.indexname)?.[1])).filter((d) => Number.isInteger(d) && d > 0);
    return new PgvectorVectorIndex(
      db,
      new Set(dimensions),
      options.efSearch ?? DEFAULT_EF_SEARCH,
      options.exactBelow ?? DEFAULT_EXACT_BELOW,
      options.smallBelow ?? DEFAULT_SMALL_BELOW,
    );
  }

  async add(target: { documentId: string; applicationId: string; space: string }, chunks: IndexedChunk[]): Promise<void> {
    await insertChunks(this.db, target, chunks, 'embedding_vector');
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    if (q.documentIds.length === 0 || q.limit < 1) return [];
    const dimension = q.vector.length;
    if (!Number.isInteger(dimension) || dimension < 1) return [];
    // One statement (see the migrations' knowledge_chunks_nearest): the candidates are counted and, past
    // exactBelow in an indexed dimension, the large documents are searched through the HNSW index and the
    // smallest ones (up to smallBelow chunks together) compared exactly; the function answers the best of
    // each part and they are merged here. A dimension with no index is always compared exactly.
    const exactBelow = this.indexed.has(dimension) ? Math.min(this.exactBelow, MAX_INT) : MAX_INT;
    const found = await rows<ChunkRow & { distance: number }>(
      this.db,
      `SELECT document_id, chunk_index, content, token_count, distance
         FROM knowledge_chunks_nearest($1::vector, $2, $3, $4, $5::uuid[], $6, $7, $8, $9)
        ORDER BY distance, document_id, chunk_index
        LIMIT $6`,
      [vectorLiteral(q.vector, '[]'), dimension, q.applicationId, q.space, q.documentIds, q.limit, this.efSearch, exactBelow, Math.min(this.smallBelow, MAX_INT)],
    );
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
