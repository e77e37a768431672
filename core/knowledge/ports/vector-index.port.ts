import type { SearchMode } from '../domain/hybrid-ranking';

/** A chunk with its embedding, as it goes into the index. Vectors are L2-normalized. */
export interface IndexedChunk {
  chunkIndex: number;
  content: string;
  tokenCount: number;
  vector: number[];
  /** Its page (PDF) and heading path, when the document has them. */
  page?: number | null;
  section?: string | null;
}

export interface ChunkHit {
  documentId: string;
  chunkIndex: number;
  content: string;
  tokenCount: number;
  /** Cosine similarity to the query, in [-1, 1]; higher is closer. */
  score: number;
  page: number | null;
  section: string | null;
  /** On keyword candidates: how well the chunk holds the query's distinctive words (higher is better). */
  keywordScore?: number;
}

export interface IndexTarget {
  documentId: string;
  applicationId: string;
  space: string;
  /** The chunks' generation (0 on first processing); a re-index writes the next one beside the live one. */
  generation?: number;
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

/** A search by meaning and by words at once: `text` is the query the vector was embedded from. */
export interface TextQuery extends VectorQuery {
  text: string;
  mode: SearchMode;
}

/** The two candidate lists of one search, each best first; a chunk may be in both. */
export interface CandidateLists {
  vector: ChunkHit[];
  keyword: ChunkHit[];
}

/** A chunk as its document's chunk list shows it. */
export interface StoredChunk {
  chunkIndex: number;
  content: string;
  tokenCount: number;
  page: number | null;
  section: string | null;
  /** A disabled chunk is kept (and listed) but never found by search or chat. */
  enabled: boolean;
}

/**
 * Where a disabled chunk of `generation` is kept: a generation no document ever has as its live one, so
 * every search (which reads only the live generation) passes it by without a change to its statements.
 */
export const setAsideGeneration = (generation: number): number => -1 - generation;

/** Words found in more than this many of the candidate chunks are too common to rank by. */
export const RARE_WORD_MAX_CHUNKS = 256;

/**
 * Chunks and their embeddings, searchable by cosine similarity (pgvector with an HNSW index where the
 * `vector` extension exists, an exact scan where it does not) and by the query's distinctive words
 * (PostgreSQL full-text search). Only the live generation of each document is ever found. The adapters
 * pass the same contract tests.
 */
export interface VectorIndex {
  /** `hnsw` answers approximately (recall below 1 is possible); `exact` compares every candidate. */
  readonly strategy: 'hnsw' | 'exact';
  add(target: IndexTarget, chunks: IndexedChunk[]): Promise<void>;
  /** The closest chunks, best first, at most `limit`, none below `minScore`. */
  search(query: VectorQuery): Promise<ChunkHit[]>;
  /**
   * In one round trip: the closest chunks (unless `mode` is keyword, at most `limit`) and the chunks
   * holding the query's rarest words (unless `mode` is vector, at most `limit`, with their cosine score).
   * `minScore` is not applied: the caller fuses the lists and decides.
   */
  candidates(query: TextQuery): Promise<CandidateLists>;
  /** After the document's live generation became `generation`: drops its chunks of every other one. */
  keepGeneration(documentId: string, generation: number): Promise<void>;
  /** Drops the chunks of one generation (a re-index that failed or was replaced). */
  removeGeneration(documentId: string, generation: number): Promise<void>;
  removeDocument(documentId: string): Promise<void>;
  /** The chunks of live `generation`, enabled and disabled, in order. */
  listChunks(documentId: string, generation: number, offset: number, limit: number): Promise<{ items: StoredChunk[]; total: number }>;
  /** Replaces one chunk's text, place and vector (enabled or not) in one transaction; false when there is no such chunk. */
  replaceChunk(target: IndexTarget & { generation: number }, chunk: IndexedChunk): Promise<boolean>;
  /** Adds a chunk after the document's last one (numbered past every chunk, disabled ones included); answers its index. */
  appendChunk(target: IndexTarget & { generation: number }, chunk: Omit<IndexedChunk, 'chunkIndex'>): Promise<number>;
  /** Enables or disables one chunk of live `generation`; false when there is no such chunk. */
  setChunkEnabled(documentId: string, generation: number, chunkIndex: number, enabled: boolean): Promise<boolean>;
}
