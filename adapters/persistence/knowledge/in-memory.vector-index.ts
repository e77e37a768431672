import { topKBySimilarity } from '../../../core/knowledge/domain/vector-math';
import { RARE_WORD_MAX_CHUNKS, setAsideGeneration, type CandidateLists, type ChunkHit, type IndexedChunk, type IndexTarget, type StoredChunk, type TextQuery, type VectorIndex, type VectorQuery } from '../../../core/knowledge/ports/vector-index.port';

interface Stored extends IndexedChunk {
  documentId: string;
  applicationId: string;
  space: string;
  generation: number;
}

/** Lower-case words of letters and digits: the in-memory stand-in for PostgreSQL's text search parser. */
const wordsOf = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * For unit tests and as the reference in contract tests: an exact scan over an array, and a keyword
 * ranking by the same rule as the SQL one (the query's words found in at most `RARE_WORD_MAX_CHUNKS`
 * candidates, weighted by inverse document frequency), on plain words instead of English stems.
 */
export class InMemoryVectorIndex implements VectorIndex {
  readonly strategy = 'exact' as const;
  readonly chunks: Stored[] = [];
  private readonly live = new Map<string, number>();

  async add(target: IndexTarget, chunks: IndexedChunk[]): Promise<void> {
    const generation = target.generation ?? 0;
    for (const c of chunks) {
      if (this.chunks.some((s) => s.documentId === target.documentId && s.generation === generation && s.chunkIndex === c.chunkIndex)) {
        throw new Error(`Chunk ${c.chunkIndex} of document ${target.documentId} is already indexed`);
      }
    }
    this.chunks.push(...chunks.map((c) => ({ ...target, ...c, generation, vector: [...c.vector] })));
  }

  async search(q: VectorQuery): Promise<ChunkHit[]> {
    return (await this.candidates({ ...q, text: '', mode: 'vector' })).vector.filter((h) => h.score >= (q.minScore ?? -Infinity));
  }

  async candidates(q: TextQuery): Promise<CandidateLists> {
    const allowed = new Set(q.documentIds);
    const pool = this.chunks
      .filter((c) => c.applicationId === q.applicationId && c.space === q.space && allowed.has(c.documentId) && c.vector.length === q.vector.length)
      .filter((c) => c.generation === (this.live.get(c.documentId) ?? 0))
      .sort((a, b) => a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
    const hit = (c: Stored, score: number, keywordScore?: number): ChunkHit => ({
      documentId: c.documentId, chunkIndex: c.chunkIndex, content: c.content, tokenCount: c.tokenCount, score,
      page: c.page ?? null, section: c.section ?? null, ...(keywordScore === undefined ? {} : { keywordScore }),
    });
    const vector = q.mode === 'keyword' ? [] : topKBySimilarity(q.vector, pool.map((c) => ({ id: c, vector: c.vector })), q.limit).map(({ id, score }) => hit(id, score));
    if (q.mode === 'vector' || q.limit < 1) return { vector, keyword: [] };
    const words = [...wordsOf(q.text)];
    const chunkWords = new Map(pool.map((c) => [c, wordsOf(`${c.section ?? ''} ${c.content}`)]));
    const weights = new Map<string, number>();
    for (const word of words) {
      const found = pool.filter((c) => chunkWords.get(c)!.has(word)).length;
      if (found >= 1 && found <= RARE_WORD_MAX_CHUNKS) weights.set(word, Math.log((pool.length + 1) / (found + 0.5)));
    }
    const keyword = pool
      .map((c) => ({ c, s: [...weights].reduce((sum, [word, w]) => sum + (chunkWords.get(c)!.has(word) ? w : 0), 0) }))
      .filter(({ s }) => s > 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, q.limit)
      .map(({ c, s }) => hit(c, topKBySimilarity(q.vector, [{ id: 0, vector: c.vector }], 1)[0]?.score ?? 0, s));
    return { vector, keyword };
  }

  async keepGeneration(documentId: string, generation: number): Promise<void> {
    this.live.set(documentId, generation);
    for (let i = this.chunks.length - 1; i >= 0; i--) if (this.chunks[i]!.documentId === documentId && this.chunks[i]!.generation !== generation) this.chunks.splice(i, 1);
  }

  async removeGeneration(documentId: string, generation: number): Promise<void> {
    for (let i = this.chunks.length - 1; i >= 0; i--) if (this.chunks[i]!.documentId === documentId && this.chunks[i]!.generation === generation) this.chunks.splice(i, 1);
  }

  async removeDocument(documentId: string): Promise<void> {
    this.live.delete(documentId);
    for (let i = this.chunks.length - 1; i >= 0; i--) if (this.chunks[i]!.documentId === documentId) this.chunks.splice(i, 1);
  }

  async listChunks(documentId: string, generation: number, offset: number, limit: number): Promise<{ items: StoredChunk[]; total: number }> {
    const mine = this.of(documentId, generation).sort((a, b) => a.chunkIndex - b.chunkIndex);
    return {
      items: mine.slice(offset, offset + limit).map((c) => ({
        chunkIndex: c.chunkIndex, content: c.content, tokenCount: c.tokenCount, page: c.page ?? null, section: c.section ?? null, enabled: c.generation >= 0,
      })),
      total: mine.length,
    };
  }

  async replaceChunk(target: IndexTarget & { generation: number }, chunk: IndexedChunk): Promise<boolean> {
    const found = this.of(target.documentId, target.generation).find((c) => c.chunkIndex === chunk.chunkIndex);
    if (!found) return false;
    Object.assign(found, { ...chunk, vector: [...chunk.vector] });
    return true;
  }

  async appendChunk(target: IndexTarget & { generation: number }, chunk: Omit<IndexedChunk, 'chunkIndex'>): Promise<number> {
    const chunkIndex = Math.max(-1, ...this.of(target.documentId, target.generation).map((c) => c.chunkIndex)) + 1;
    await this.add(target, [{ ...chunk, chunkIndex }]);
    return chunkIndex;
  }

  async setChunkEnabled(documentId: string, generation: number, chunkIndex: number, enabled: boolean): Promise<boolean> {
    const found = this.of(documentId, generation).find((c) => c.chunkIndex === chunkIndex);
    if (!found) return false;
    found.generation = enabled ? generation : setAsideGeneration(generation);
    return true;
  }

  /** The generation's chunks, set-aside ones included. */
  private of(documentId: string, generation: number): Stored[] {
    return this.chunks.filter((c) => c.documentId === documentId && (c.generation === generation || c.generation === setAsideGeneration(generation)));
  }
}
