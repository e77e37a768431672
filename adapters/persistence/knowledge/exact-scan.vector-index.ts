import type { DataSource } from 'typeorm';
import { RARE_WORD_MAX_CHUNKS, type CandidateLists, type ChunkHit, type IndexedChunk, type IndexTarget, type StoredChunk, type TextQuery, type VectorIndex, type VectorQuery } from '../../../core/knowledge/ports/vector-index.port';
import { rows } from '../sql';
import { appendChunk, insertChunks, keepGeneration, listChunks, removeGeneration, replaceChunk, setChunkEnabled, toHit, vectorLiteral, type ChunkRow } from './chunk-rows';

/**
 * Embeddings as `real[]`, searched by computing every candidate's dot product in SQL (vectors are
 * normalized, so it is the cosine). For PostgreSQL servers without pgvector; exact, linear in the
 * application's chunks. Keyword candidates come from the same statement (`knowledge_chunks_keyword`).
 */
export class ExactScanVectorIndex implements VectorIndex {
  readonly strategy = 'exact' as const;

  constructor(private readonly db: DataSource) {}

  async add(target: IndexTarget, chunks: IndexedChunk[]): Promise<void> {
    await insertChunks(this.db, target, chunks, 'embedding');
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    const { vector } = await this.candidates({ ...q, text: '', mode: 'vector' });
    return vector.filter((hit) => hit.score >= (q.minScore ?? -Infinity));
  }

  async candidates(q: TextQuery): Promise<CandidateLists> {
    if (q.documentIds.length === 0 || q.limit < 1) return { vector: [], keyword: [] };
    const found = await rows<ChunkRow & { score: number; keyword_score: number | null }>(
      this.db,
      `WITH live AS (
         SELECT c.document_id, c.chunk_index, c.content, c.token_count, c.page, c.section,
                (SELECT sum(e::float8 * v::float8) FROM unnest(c.embedding, $1::real[]) AS p(e, v)) AS score
           FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id AND d.generation = c.generation
          WHERE c.application_id = $2 AND c.space = $3 AND c.dimension = $4 AND c.document_id = ANY($5::uuid[]) AND c.embedding IS NOT NULL
       ),
       by_vector AS (
         SELECT live.*, NULL::float8 AS keyword_score FROM live WHERE $7::text <> 'keyword' ORDER BY score DESC, document_id, chunk_index LIMIT $6::int
       ),
       by_keyword AS (
         SELECT live.*, k.keyword_score
           FROM knowledge_chunks_keyword(CASE WHEN $7::text = 'vector' THEN NULL ELSE $8::text END, $2::uuid, $3::text, $5::uuid[], $6::int, $9::int) k
           JOIN live ON live.document_id = k.document_id AND live.chunk_index = k.chunk_index
       )
       SELECT * FROM by_vector UNION ALL SELECT * FROM by_keyword`,
      [vectorLiteral(q.vector, '{}'), q.applicationId, q.space, q.vector.length, q.documentIds, q.limit, q.mode, q.text, RARE_WORD_MAX_CHUNKS],
    );
    const vector: ChunkHit[] = [];
    const keyword: ChunkHit[] = [];
    for (const r of found) (r.keyword_score === null ? vector : keyword).push(toHit(r, Number(r.score)));
    keyword.sort((a, b) => b.keywordScore! - a.keywordScore! || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
    return { vector, keyword };
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
    return replaceChunk(this.db, target, chunk, 'embedding');
  }

  appendChunk(target: IndexTarget & { generation: number }, chunk: Omit<IndexedChunk, 'chunkIndex'>): Promise<number> {
    return appendChunk(this.db, target, chunk, 'embedding');
  }

  setChunkEnabled(documentId: string, generation: number, chunkIndex: number, enabled: boolean): Promise<boolean> {
    return setChunkEnabled(this.db, documentId, generation, chunkIndex, enabled);
  }
}
