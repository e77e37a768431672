import { topKBySimilarity } from '../../../core/knowledge/domain/vector-math';
import type { ChunkHit, IndexedChunk, VectorIndex, VectorQuery } from '../../../core/knowledge/ports/vector-index.port';

interface Stored extends IndexedChunk {
  documentId: string;
  applicationId: string;
  space: string;
}

/** For unit tests and as the reference in contract tests: an exact scan over an array. */
export class InMemoryVectorIndex implements VectorIndex {
  readonly strategy = 'exact' as const;
  readonly chunks: Stored[] = [];

  async add(target: { documentId: string; applicationId: string; space: string }, chunks: IndexedChunk[]): Promise<void> {
    for (const c of chunks) {
      if (this.chunks.some((s) => s.documentId === target.documentId && s.chunkIndex === c.chunkIndex)) {
        throw new Error(`Chunk ${c.chunkIndex} of document ${target.documentId} is already indexed`);
      }
    }
    this.chunks.push(...chunks.map((c) => ({ ...target, ...c, vector: [...c.vector] })));
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    const allowed = new Set(q.documentIds);
    const candidates = this.chunks
      .filter((c) => c.applicationId === q.applicationId && c.space === q.space && allowed.has(c.documentId) && c.vector.length === q.vector.length)
      .sort((a, b) => a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
    const ranked = topKBySimilarity(q.vector, candidates.map((c) => ({ id: c, vector: c.vector })), q.limit, q.minScore);
    return ranked.map(({ id: c, score }) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex, content: c.content, tokenCount: c.tokenCount, score }));
  }

  async removeDocument(documentId: string): Promise<void> {
    for (let i = this.chunks.length - 1; i >= 0; i--) if (this.chunks[i]!.documentId === documentId) this.chunks.splice(i, 1);
  }
}
