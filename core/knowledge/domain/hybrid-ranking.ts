import type { ChunkHit } from '../ports/vector-index.port';

/** How a search ranks: by meaning (vectors), by words (full text), or both fused (the default). */
export const SEARCH_MODES = ['hybrid', 'vector', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
export const DEFAULT_SEARCH_MODE: SearchMode = 'hybrid';

export const isSearchMode = (value: unknown): value is SearchMode => typeof value === 'string' && (SEARCH_MODES as readonly string[]).includes(value);

/** Reciprocal rank fusion's constant: 60, as Cormack et al. chose it; it damps the weight of the very top ranks. */
export const RRF_K = 60;

export interface RankedHit extends ChunkHit {
  /** What orders hits of this mode: the fused score (hybrid), the cosine (vector), the keyword score (keyword). */
  rank: number;
  /** Found by the query's words (a keyword candidate), whatever its cosine. */
  byKeyword: boolean;
}

const keyOf = (h: ChunkHit): string => `${h.documentId}\n${h.chunkIndex}`;
const byScore = (a: ChunkHit, b: ChunkHit): number => b.score - a.score || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex;

/**
 * One ranking from the two candidate lists. Hybrid: reciprocal rank fusion of the ranking by meaning and
 * the ranking by words, where the ranking by meaning takes in the keyword candidates too, by their exact
 * cosine: a passage the approximate vector walk missed still gets the meaning rank it deserves, so a needle
 * found by its words and closest in meaning comes first. Vector and keyword modes rank by their list alone.
 */
export function rankCandidates(lists: { vector: ChunkHit[]; keyword: ChunkHit[] }, mode: SearchMode, limit: number): RankedHit[] {
  const keywordKeys = new Set(lists.keyword.map(keyOf));
  if (mode === 'vector') return [...lists.vector].sort(byScore).slice(0, limit).map((h) => ({ ...h, rank: h.score, byKeyword: keywordKeys.has(keyOf(h)) }));
  if (mode === 'keyword') return lists.keyword.slice(0, limit).map((h) => ({ ...h, rank: h.keywordScore ?? 0, byKeyword: true }));
  const pool = new Map<string, ChunkHit>();
  for (const h of [...lists.keyword, ...lists.vector]) {
    const known = pool.get(keyOf(h));
    pool.set(keyOf(h), known ? { ...h, keywordScore: known.keywordScore ?? h.keywordScore } : h);
  }
  const fused = new Map<string, number>();
  [...pool.values()].sort(byScore).forEach((h, i) => fused.set(keyOf(h), 1 / (RRF_K + i + 1)));
  lists.keyword.forEach((h, i) => fused.set(keyOf(h), (fused.get(keyOf(h)) ?? 0) + 1 / (RRF_K + i + 1)));
  return [...pool.values()]
    .map((h) => ({ ...h, rank: fused.get(keyOf(h))!, byKeyword: keywordKeys.has(keyOf(h)) }))
    .sort((a, b) => b.rank - a.rank || byScore(a, b))
    .slice(0, limit);
}
