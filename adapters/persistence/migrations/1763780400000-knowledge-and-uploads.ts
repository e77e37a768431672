import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Uploads, knowledge documents and their chunks.
 *
 * Embeddings: every chunk records its embedding space (provider and model) and dimension, since models
 * differ (384 for the local embedder, 768 to 3072 for providers). Where the pgvector extension can be
 * installed (PGlite ships it), chunks get an untyped `vector` column and one partial HNSW index (cosine) per
 * common dimension, on the column cast to that dimension; other dimensions are scanned exactly. Where it
 * cannot, embeddings are `real[]` and searched by an exact scan in SQL.
 */
export class KnowledgeAndUploads1763780400000 implements MigrationInterface {
  name = 'KnowledgeAndUploads1763780400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE uploads (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        file_name text NOT NULL,
        mime_type text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('image', 'json', 'zip', 'text', 'markdown')),
        size_bytes integer NOT NULL CHECK (size_bytes >= 0),
        storage_key text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX uploads_owner_idx ON uploads (owner_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE knowledge_documents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        file_name text NOT NULL,
        format text NOT NULL CHECK (format IN ('txt', 'md', 'json', 'csv', 'html', 'xml')),
        size_bytes integer NOT NULL CHECK (size_bytes >= 0),
        storage_key text NOT NULL UNIQUE,
        status text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'ready', 'error')),
        progress smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        chunk_count integer NOT NULL DEFAULT 0,
        error text,
        chunk_size integer NOT NULL,
        chunk_overlap integer NOT NULL,
        embedding_provider text NOT NULL,
        embedding_model text NOT NULL,
        embedding_dimension integer,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX knowledge_documents_application_idx ON knowledge_documents (application_id, created_at DESC)`);
    await q.query(`CREATE INDEX knowledge_documents_processing_idx ON knowledge_documents (updated_at) WHERE status = 'processing'`);

    await q.query(`
      CREATE TABLE knowledge_chunks (
        document_id uuid NOT NULL REFERENCES knowledge_documents(id) ON DELETE CASCADE,
        chunk_index integer NOT NULL,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        space text NOT NULL,
        dimension integer NOT NULL CHECK (dimension > 0),
        content text NOT NULL,
        token_count integer NOT NULL,
        embedding real[],
        PRIMARY KEY (document_id, chunk_index)
      )`);
    await q.query(`CREATE INDEX knowledge_chunks_application_idx ON knowledge_chunks (application_id, space)`);

    if (await this.installVector(q)) {
      await q.query(`ALTER TABLE knowledge_chunks ADD COLUMN embedding_vector vector`);
      // The local embedder (384), and the usual sizes of provider models (768, 1024, 1536). HNSW indexes at most 2,000 dimensions.
      // m = 24 and ef_construction = 100 rather than pgvector's 16 and 64: at 100,000 chunks and ef_search 200 the
      // default graph found 0.91 of the true top 10 for short queries, this one 0.95 (docs/benchmarks/knowledge.md).
      for (const dimension of [384, 768, 1024, 1536]) {
        await q.query(
          `CREATE INDEX knowledge_chunks_hnsw_${dimension} ON knowledge_chunks
           USING hnsw ((embedding_vector::vector(${dimension})) vector_cosine_ops) WITH (m = 24, ef_construction = 100)
           WHERE dimension = ${dimension}`,
        );
      }
    }
  }

  /** Installs pgvector when the server offers it and we may; a refusal leaves the exact-scan layout. */
  private async installVector(q: QueryRunner): Promise<boolean> {
    const available = (await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)) as unknown[];
    if (available.length > 0) {
      await q.query(`SAVEPOINT install_vector`);
      try {
        await q.query(`CREATE EXTENSION IF NOT EXISTS vector`);
        await q.query(`RELEASE SAVEPOINT install_vector`);
      } catch {
        await q.query(`ROLLBACK TO SAVEPOINT install_vector`);
      }
    }
    return ((await q.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)) as unknown[]).length > 0;
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE knowledge_chunks`);
    await q.query(`DROP TABLE knowledge_documents`);
    await q.query(`DROP TABLE uploads`);
  }
}
