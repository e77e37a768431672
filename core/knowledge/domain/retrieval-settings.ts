import type { SearchMode } from './hybrid-ranking';

/**
 * How an application's chat retrieves knowledge (docs/knowledge.md): the search mode (null: the
 * application's own retrieval mode), how many chunks at most reach the prompt, the lowest cosine score a
 * chunk needs to reach the prompt and the answer's sources (null: each embedder's own floor), and whether
 * the reranker, when the platform has one, orders the candidates.
 */
export interface RetrievalSettings {
  mode: SearchMode | null;
  topK: number;
  scoreThreshold: number | null;
  rerank: boolean;
}

export const DEFAULT_TOP_K = 8;
export const MAX_TOP_K = 20;

export const DEFAULT_RETRIEVAL_SETTINGS: Readonly<RetrievalSettings> = { mode: null, topK: DEFAULT_TOP_K, scoreThreshold: null, rerank: false };
