import type { DataSource } from 'typeorm';
import { RARE_WORD_MAX_CHUNKS, type CandidateLists, type ChunkHit, type IndexedChunk, type IndexTarget, type StoredChunk, type TextQuery, type VectorIndex, type VectorQuery } from '../../../core/knowledge/ports/vector-index.port';
import { one, rows } from '../sql';
import { appendChunk, insertChunks, keepGeneration, listChunks, removeGeneration, replaceChunk, setChunkEnabled, toHit, vectorLiteral, type ChunkRow } from './chunk-rows';

export const DEFAULT_EF_SEARCH = 100;
/** Up to this many candidate chunks, an exact scan is about as fast as the index and never misses. */
export const DEFAULT_EXACT_BELOW = 2000;
/**
 * Past exactBelow, the smallest documents up to this many chunks together are still compared exactly and
 * only the rest go through the index: HNSW misses outliers, and a small document on its own subject (a
 * refund policy beside a large handbook) is one. About 2.5 ms of exact comparisons per search on PGlite.
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

  async add(target: IndexTarget, chunks: IndexedChunk[]): Promise<void> {
    await insertChunks(this.db, target, chunks, 'embedding_vector');
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    const { vector } = await this.candidates({ ...q, text: '', mode: 'vector' });
    const minScore = q.minScore ?? -Infinity;
    return vector.filter((hit) => hit.score >= minScore);
  }

  async candidates(q: TextQuery): Promise<CandidateLists> {
    if (q.documentIds.length === 0 || q.limit < 1) return { vector: [], keyword: [] };
    const dimension = q.vector.length;
    if (!Number.isInteger(dimension) || dimension < 1) return { vector: [], keyword: [] };
    // One statement (see the migrations' knowledge_chunks_search): unless the mode is vector, the chunks
    // holding the query's rare words with their distance; unless it is keyword, the candidates are counted
    // and, past exactBelow in an indexed dimension, the large documents are searched through the HNSW index
    // and the smallest ones (up to smallBelow chunks together) compared exactly; the function answers the
    // best of each part and they are merged here. A dimension with no index is always compared exactly.
    const exactBelow = this.indexed.has(dimension) ? Math.min(this.exactBelow, MAX_INT) : MAX_INT;
    const found = await rows<ChunkRow & { distance: number; keyword_score: number | null }>(
      this.db,
      `SELECT document_id, chunk_index, content, token_count, page, section, distance, keyword_score
         FROM knowledge_chunks_search($1::vector, $2::text, $3::text, $4::int, $5::uuid, $6::text, $7::uuid[], $8::int, $9::int, $10::int, $11::int, $12::int)`,
      [
        vectorLiteral(q.vector, '[]'), q.mode === 'vector' ? null : q.text, q.mode, dimension, q.applicationId, q.space, q.documentIds, q.limit,
        this.efSearch, exactBelow, Math.min(this.smallBelow, MAX_INT), RARE_WORD_MAX_CHUNKS,
      ],
    );
    const vector: ChunkHit[] = [];
    const keyword: ChunkHit[] = [];
    for (const r of found) {
      const hit = toHit(r, 1 - Number(r.distance));
      (r.keyword_score === null ? vector : keyword).push(hit);
    }
    // Relaxed iterative scans may return a near-tie out of order.
    vector.sort((a, b) => b.score - a.score || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
    keyword.sort((a, b) => b.keywordScore! - a.keywordScore! || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
    return { vector: vector.slice(0, q.limit), keyword };
  }

  async keepGeneration(documentId: string, generation: number): Promise<void> {
    await keepGeneration(this.db, documentId, generation);
  }

  async removeGeneration(documentId: string, generation: number): Promise<void> {
    await removeGeneration(this.db, documentId, generation);
  }

  async removeDocument(documentId: string): Promise<void> {
    await this.db.query(`DELETE FROM knowledge_chunks WHERE document_id = $1`, [documentId]);
  }

  listChunks(documentId: string, generation: number, offset: number, limit: number): Promise<{ items: StoredChunk[]; total: number }> {
    return listChunks(this.db, documentId, generation, offset, limit);
  }

  replaceChunk(target: IndexTarget & { generation: number }, chunk: IndexedChunk): Promise<boolean> {
    return replaceChunk(this.db, target, chunk, 'embedding_vector');
  }

  appendChunk(target: IndexTarget & { generation: number }, chunk: Omit<IndexedChunk, 'chunkIndex'>): Promise<number> {
    return appendChunk(this.db, target, chunk, 'embedding_vector');
  }

  setChunkEnabled(documentId: string, generation: number, chunkIndex: number, enabled: boolean): Promise<boolean> {
    return setChunkEnabled(this.db, documentId, generation, chunkIndex, enabled);
  }
}

/** The migration gave chunks an `embedding_vector` column only where pgvector was installed. */
export async function hasPgvectorColumn(db: DataSource): Promise<boolean> {
  const found = await one(
    db,
    `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'knowledge_chunks' AND column_name = 'embedding_vector'`,
  );
  return found !== null;
}
