import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Knowledge an owner can keep current (docs/knowledge.md):
 * - Versions: every file a document has held (`knowledge_document_versions`, numbered from 1 per document,
 *   with who uploaded it, when, its size and checksum). A document's `version` is the one search reads;
 *   `pending_version` is a replacement (or a rollback) being built as the next chunk generation beside the
 *   live one, switched in the same statement as the generation. Existing documents become version 1,
 *   uploaded by their application's owner.
 * - `pending_progress`: how far a re-index or replacement has got (0 to 100).
 * - Retrieval settings per application: mode, top-K, score threshold and the optional reranker.
 * A disabled chunk needs no column: it is moved to its generation's set-aside twin (`-1 - generation`),
 * which no search reads (they all join on the document's live generation).
 */
export class KnowledgeVersions1764600400000 implements MigrationInterface {
  name = 'KnowledgeVersions1764600400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE knowledge_document_versions (
        document_id uuid NOT NULL REFERENCES knowledge_documents(id) ON DELETE CASCADE,
        version integer NOT NULL,
        file_name text NOT NULL,
        format text NOT NULL,
        size_bytes bigint NOT NULL,
        storage_key text NOT NULL,
        content_hash text,
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        restored_from integer,
        failure text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (document_id, version)
      )`);
    await q.query(`ALTER TABLE knowledge_documents ADD COLUMN version integer NOT NULL DEFAULT 1, ADD COLUMN pending_version integer, ADD COLUMN pending_progress integer`);
    await q.query(`
      INSERT INTO knowledge_document_versions (document_id, version, file_name, format, size_bytes, storage_key, content_hash, created_by, created_at)
        SELECT d.id, 1, d.file_name, d.format, d.size_bytes, d.storage_key, d.content_hash, a.owner_id, d.created_at
          FROM knowledge_documents d JOIN applications a ON a.id = d.application_id`);
    await q.query(`CREATE INDEX knowledge_documents_name_idx ON knowledge_documents (application_id, file_name)`);
    await q.query(`
      CREATE TABLE knowledge_retrieval_settings (
        application_id uuid PRIMARY KEY REFERENCES applications(id) ON DELETE CASCADE,
        mode text,
        top_k integer NOT NULL,
        score_threshold double precision,
        rerank boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE knowledge_retrieval_settings`);
    await q.query(`DROP INDEX knowledge_documents_name_idx`);
    await q.query(`DELETE FROM knowledge_chunks WHERE generation < 0`);
    await q.query(`ALTER TABLE knowledge_documents DROP COLUMN version, DROP COLUMN pending_version, DROP COLUMN pending_progress`);
    await q.query(`DROP TABLE knowledge_document_versions`);
  }
}
