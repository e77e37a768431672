import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyword search without the GIN pending list. With `fastupdate` on (PostgreSQL's default) new chunks'
 * words go to the index's pending list, which every search reads through in full, once per query word
 * counted by `knowledge_chunks_keyword`, until a vacuum merges it; PGlite has no autovacuum, so after an
 * upload the list stayed at up to `gin_pending_list_limit` (4 MB) and a word held by one chunk cost as much
 * as reading the whole list. Now entries go straight into the index (a little more work per inserted
 * chunk, small beside its HNSW insert), and the list earlier inserts left is merged here. Answers are
 * unchanged.
 */
export class KnowledgeKeywordIndex1764500351000 implements MigrationInterface {
  name = 'KnowledgeKeywordIndex1764500351000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX knowledge_chunks_tsv_idx SET (fastupdate = off)`);
    await q.query(`SELECT gin_clean_pending_list('knowledge_chunks_tsv_idx'::regclass)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX knowledge_chunks_tsv_idx RESET (fastupdate)`);
  }
}
