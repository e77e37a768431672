import type { DataSource } from 'typeorm';
import type { CandidateLists, ChunkHit, IndexedChunk, IndexTarget, StoredChunk, TextQuery, VectorIndex, VectorQuery } from '../../../core/knowledge/ports/vector-index.port';
import { ExactScanVectorIndex } from './exact-scan.vector-index';
import { hasPgvectorColumn, PgvectorVectorIndex, type PgvectorOptions } from './pgvector.vector-index';

/** The index the database supports: pgvector with HNSW when the migration could install it, else the exact scan. */
export async function openVectorIndex(db: DataSource, options: PgvectorOptions = {}): Promise<VectorIndex> {
  return (await hasPgvectorColumn(db)) ? PgvectorVectorIndex.open(db, options) : new ExactScanVectorIndex(db);
}

/**
 * Containers bind synchronously while choosing the index needs a query: this stands in for the chosen
 * one, and the app awaits `ready()` at start-up, before any request can use it.
 */
export class DeferredVectorIndex implements VectorIndex {
  private chosen?: VectorIndex;
  private readonly opening: Promise<VectorIndex>;

  constructor(open: () => Promise<VectorIndex>) {
    this.opening = open().then((index) => (this.chosen = index));
    this.opening.catch(() => undefined); // surfaced by ready() and by the first use
  }

  get strategy(): VectorIndex['strategy'] {
    if (!this.chosen) throw new Error('The vector index is not open yet');
    return this.chosen.strategy;
  }

  ready(): Promise<VectorIndex> {
    return this.opening;
  }

  async add(target: IndexTarget, chunks: IndexedChunk[]): Promise<void> {
    return (await this.opening).add(target, chunks);
  }

  async search(query: VectorQuery): Promise<ChunkHit[]> {
    return (await this.opening).search(query);
  }

  async candidates(query: TextQuery): Promise<CandidateLists> {
    return (await this.opening).candidates(query);
  }

  async keepGeneration(documentId: string, generation: number): Promise<void> {
    return (await this.opening).keepGeneration(documentId, generation);
  }

  async removeGeneration(documentId: string, generation: number): Promise<void> {
    return (await this.opening).removeGeneration(documentId, generation);
  }

  async removeDocument(documentId: string): Promise<void> {
    return (await this.opening).removeDocument(documentId);
  }

  async listChunks(documentId: string, generation: number, offset: number, limit: number): Promise<{ items: StoredChunk[]; total: number }> {
    return (await this.opening).listChunks(documentId, generation, offset, limit);
  }

  async replaceChunk(target: IndexTarget & { generation: number }, chunk: IndexedChunk): Promise<boolean> {
    return (await this.opening).replaceChunk(target, chunk);
  }

  async appendChunk(target: IndexTarget & { generation: number }, chunk: Omit<IndexedChunk, 'chunkIndex'>): Promise<number> {
    return (await this.opening).appendChunk(target, chunk);
  }

  async setChunkEnabled(documentId: string, generation: number, chunkIndex: number, enabled: boolean): Promise<boolean> {
    return (await this.opening).setChunkEnabled(documentId, generation, chunkIndex, enabled);
  }
}
