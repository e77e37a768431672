import type { DataSource } from 'typeorm';
import type { ChunkHit, IndexedChunk, VectorIndex, VectorQuery } from '../../../core/knowledge/ports/vector-index.port';
import { rows } from '../sql';
import { insertChunks, vectorLiteral, type ChunkRow } from './chunk-rows';

/**
 * Embeddings as `real[]`, searched by computing every candidate's dot product in SQL (vectors are
 * normalized, so it is the cosine). For PostgreSQL servers without pgvector; exact, linear in the
 * application's chunks.
 */
export class ExactScanVectorIndex implements VectorIndex {
  readonly strategy = 'exact' as const;

  constructor(private readonly db: DataSource) {}

  async add(target: { documentId: string; applicationId: string; space: string }, chunks: IndexedChunk[]): Promise<void> {
    await insertChunks(this.db, target, chunks, 'embedding');
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    if (q.documentIds.length === 0 || q.limit < 1) return [];
    const found = await rows<ChunkRow & { score: number }>(
      this.db,
      `SELECT document_id, chunk_index, content, token_count, score FROM (
         SELECT document_id, chunk_index, content, token_count,
                (SELECT sum(e::float8 * v::float8) FROM unnest(embedding, $1::real[]) AS p(e, v)) AS score
           FROM knowledge_chunks
          WHERE application_id = $2 AND space = $3 AND dimension = $4 AND document_id = ANY($5::uuid[]) AND embedding IS NOT NULL
       ) scored
       WHERE score >= $6
       ORDER BY score DESC, document_id, chunk_index
       LIMIT $7`,
      [vectorLiteral(q.vector, '{}'), q.applicationId, q.space, q.vector.length, q.documentIds, q.minScore ?? -2, q.limit],
    );
    return found.map((r) => ({
      documentId: r.document_id,
      chunkIndex: Number(r.chunk_index),
      content: r.content,
      tokenCount: Number(r.token_count),
      score: clamp(Number(r.score)),
    }));
  }

  async removeDocument(documentId: string): Promise<void> {
    await this.db.query(`DELETE FROM knowledge_chunks WHERE document_id = $1`, [documentId]);
  }
}

const clamp = (score: number): number => Math.min(1, Math.max(-1, score));
