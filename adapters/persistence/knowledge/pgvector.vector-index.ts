import type { DataSource } from 'typeorm';
import type { ChunkHit, IndexedChunk, VectorIndex, VectorQuery } from '../../../core/knowledge/ports/vector-index.port';
import { one, rows, type Sql } from '../sql';
import { insertChunks, vectorLiteral, type ChunkRow } from './chunk-rows';

export const DEFAULT_EF_SEARCH = 100;
/** Up to this many candidate chunks, an exact scan is about as fast as the index and never misses. */
export const DEFAULT_EXACT_BELOW = 2000;

export interface PgvectorOptions {
  /**
   * Candidates HNSW keeps while searching: higher is more accurate and slower (pgvector's default is 40).
   * At 100 the benchmark's 100,000 chunks answer within 20 ms at p99; see docs/benchmarks/knowledge.md
   * for the recall of each setting.
   */
  efSearch?: number;
  /** Candidates up to which the search compares every chunk instead of walking the index. */
  exactBelow?: number;
}

/**
 * pgvector: the untyped `embedding_vector` column, with a partial HNSW index (cosine) per common dimension
 * on the column cast to it (see the migration). A query with many candidates in an indexed dimension walks
 * that index, with iterative scans so the application and document filters cannot starve the result; a
 * query with few candidates (by the ready documents' chunk counts), or of another dimension, compares them
 * all exactly.
 */
export class PgvectorVectorIndex implements VectorIndex {
  readonly strategy = 'hnsw' as const;

  private constructor(
    private readonly db: DataSource,
    private readonly indexed: ReadonlySet<number>,
    private readonly efSearch: number,
    private readonly exactBelow: number,
  ) {}

  /** Reads which dimensions have an HNSW index, so queries name the exact expression each index is on. */
  static async open(db: DataSource, options: PgvectorOptions = {}): Promise<PgvectorVectorIndex> {
    const indexes = await rows<{ indexname: string }>(
      db,
      `SELECT indexname FROM pg_indexes WHERE tablename = 'knowledge_chunks' AND schemaname = current_schema() AND indexname LIKE 'knowledge_chunks_hnsw_%'`,
    );
    const dimensions = indexes.map((i) => Number(/_(\d+)$/.exec(i.indexname)?.[1])).filter((d) => Number.isInteger(d) && d > 0);
    return new PgvectorVectorIndex(db, new Set(dimensions), options.efSearch ?? DEFAULT_EF_SEARCH, options.exactBelow ?? DEFAULT_EXACT_BELOW);
  }

  async add(target: { documentId: string; applicationId: string; space: string }, chunks: IndexedChunk[]): Promise<void> {
    await insertChunks(this.db, target, chunks, 'embedding_vector');
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    if (q.documentIds.length === 0 || q.limit < 1) return [];
    const dimension = q.vector.length;
    // The dimension is a number we checked, written into the SQL so the planner can match the partial index.
    if (!Number.isInteger(dimension) || dimension < 1) return [];
    const filter = `dimension = ${dimension} AND application_id = $2 AND space = $3 AND document_id = ANY($4::uuid[])`;
    const params = [vectorLiteral(q.vector, '[]'), q.applicationId, q.space, q.documentIds, q.limit];
    const found = await this.db.transaction(async (tx) => {
      const useIndex = this.indexed.has(dimension) && (await this.candidates(tx, q.documentIds)) > this.exactBelow;
      if (!useIndex) {
        // Few candidates (or no index for this size): comparing them all is exact and fast. The column is not
        // cast, so no HNSW index (each is on a cast) matches the ORDER BY.
        return rows<ChunkRow & { distance: number }>(
          tx,
          `SELECT document_id, chunk_index, content, token_count, embedding_vector <=> $1::vector AS distance
             FROM knowledge_chunks WHERE ${filter}
            ORDER BY embedding_vector <=> $1::vector, document_id, chunk_index LIMIT $5`,
          params,
        );
      }
      // pgvector's cost model turns to a full scan and sort when ef_search is high, which is slower than the
      // index by far; past the threshold the index is what we want, so the alternatives are ruled out.
      await tx.query(
        `SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(this.efSearch, q.limit))}; SET LOCAL hnsw.iterative_scan = relaxed_order;
         SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off`,
      );
      const column = `(embedding_vector::vector(${dimension}))`;
      return rows<ChunkRow & { distance: number }>(
        tx,
        `SELECT document_id, chunk_index, content, token_count, ${column} <=> $1::vector(${dimension}) AS distance
           FROM knowledge_chunks WHERE ${filter}
          ORDER BY ${column} <=> $1::vector(${dimension}) LIMIT $5`,
        params,
      );
    });
    const minScore = q.minScore ?? -Infinity;
    return found
      .map((r) => ({ documentId: r.document_id, chunkIndex: Number(r.chunk_index), content: r.content, tokenCount: Number(r.token_count), score: clamp(1 - Number(r.distance)) }))
      .filter((hit) => hit.score >= minScore)
      // Relaxed iterative scans may return a near-tie out of order.
      .sort((a, b) => b.score - a.score || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
  }

  /** How many chunks the documents hold, from their own counts (documents given here are ready ones). */
  private async candidates(tx: Sql, documentIds: string[]): Promise<number> {
    const found = await one<{ n: number }>(tx, `SELECT coalesce(sum(chunk_count), 0)::int AS n FROM knowledge_documents WHERE id = ANY($1::uuid[])`, [documentIds]);
    return found?.n ?? 0;
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
