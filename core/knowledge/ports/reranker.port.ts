/**
 * Orders passages by how well they answer a query (a cross-encoder, or a provider's rerank API). Optional:
 * without one, the retrieval settings' `rerank` has no effect.
 */
export interface Reranker {
  readonly model: string;
  /** Relevance of each passage, best first (`index` into `documents`), at most `topN`. */
  rerank(query: string, documents: string[], options: { topN: number; signal?: AbortSignal }): Promise<Array<{ index: number; score: number }>>;
}
