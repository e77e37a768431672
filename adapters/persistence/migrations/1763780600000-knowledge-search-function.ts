import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where pgvector is installed, a knowledge search is one statement: `knowledge_chunks_nearest` counts
 * the candidates and, past `exact_below`, walks the dimension's HNSW index with the planner settings
 * the walk needs (ef_search, iterative scans, no full scan or sort), else compares every candidate.
 * Before, the same search took five statements (a transaction, the count, the settings, the query,
 * the commit); each costs a round trip, which matters most when PGlite runs on its own thread.
 *
 * The settings named in the function's SET clause are put back when it returns, whatever it changed
 * inside, so nothing leaks into the session that ran it.
 */
export class KnowledgeSearchFunction1763780600000 implements MigrationInterface {
  name = 'KnowledgeSearchFunction1763780600000';

  async up(q: QueryRunner): Promise<void> {
    const vector = (await q.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)) as unknown[];
    if (vector.length === 0) return; // the exact-scan layout searches with plain SQL
    await q.query(`
      CREATE FUNCTION knowledge_chunks_nearest(
        query vector, dims integer, app uuid, chunk_space text, documents uuid[], top integer, ef_search integer, exact_below integer
      ) RETURNS TABLE (document_id uuid, chunk_index integer, content text, token_count integer, distance double precision)
      LANGUAGE plpgsql STABLE
      SET hnsw.ef_search = 40 SET hnsw.iterative_scan = off SET enable_seqscan = on SET enable_sort = on
      AS $fn$
      DECLARE
        candidates bigint;
      BEGIN
        SELECT coalesce(sum(d.chunk_count), 0) INTO candidates FROM knowledge_documents d WHERE d.id = ANY(documents);
        IF candidates <= exact_below THEN
          -- Few candidates: comparing them all is exact and fast. The column is not cast, so no HNSW index matches.
          RETURN QUERY
            SELECT c.document_id, c.chunk_index, c.content, c.token_count, (c.embedding_vector <=> query)::double precision
              FROM knowledge_chunks c
             WHERE c.dimension = dims AND c.application_id = app AND c.space = chunk_space AND c.document_id = ANY(documents)
             ORDER BY c.embedding_vector <=> query, c.document_id, c.chunk_index
             LIMIT top;
          RETURN;
        END IF;
        -- pgvector's cost model turns to a full scan and sort when ef_search is high, which is far slower
        -- than the index; past the threshold the index is what we want, so the alternatives are ruled out.
        PERFORM set_config('hnsw.ef_search', least(1000, greatest(ef_search, top))::text, true);
        PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true);
        PERFORM set_config('enable_seqscan', 'off', true);
        PERFORM set_config('enable_sort', 'off', true);
        -- The expression must be the index's own, cast to the dimension, hence the dynamic statement.
        RETURN QUERY EXECUTE format(
          'SELECT c.document_id, c.chunk_index, c.content, c.token_count,
                  ((c.embedding_vector::vector(%1$s)) <=> $1::vector(%1$s))::double precision
             FROM knowledge_chunks c
            WHERE c.dimension = %1$s AND c.application_id = $2 AND c.space = $3 AND c.document_id = ANY($4)
            ORDER BY (c.embedding_vector::vector(%1$s)) <=> $1::vector(%1$s)
            LIMIT $5', dims)
          USING query, app, chunk_space, documents, top;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS knowledge_chunks_nearest(vector, integer, uuid, text, uuid[], integer, integer, integer)`);
  }
}
