/** A chunk with its embedding, as it goes into the index. Vectors are L2-normalized. */
export interface IndexedChunk {
  chunkIndex: number;
  content: string;
  tokenCount: number;
  vector: number[];
}

export interface ChunkHit {
  documentId: string;
  chunkIndex: number;
  content: string;
  tokenCount: number;
  /** Cosine similarity to the query, in [-1, 1]; higher is closer. */
  score: number;
}

export interface VectorQuery {
  applicationId: string;
  /** The embedding space (`embeddingSpace(provider, model)`) the query vector belongs to. */
  space: string;
  vector: number[];
  /** Only chunks of these documents (the ready ones) are candidates. */
  documentIds: string[];
  limit: number;
  minScore?: number;
}

/**
 * Chunks and their embeddings, searchable by cosine similarity: pgvector with an HNSW index where the
 * `vector` extension exists, an exact scan where it does not. Both pass the same contract tests.
 */
export interface VectorIndex {
  /** `hnsw` answers approximately (recall below 1 is possible); `exact` compares every candidate. */
  readonly strategy: 'hnsw' | 'exact';
  add(target: { documentId: string; applicationId: string; space: string }, chunks: IndexedChunk[]): Promise<void>;
  /** The closest chunks, best first, at most `limit`, none below `minScore`. */
  search(query: VectorQuery): Promise<ChunkHit[]>;
  removeDocument(documentId: string): Promise<void>;
}
