import type { MigrationInterface, QueryRunner } from 'typeorm';
import { KnowledgeSearchFunction1763780600000 } from './1763780600000-knowledge-search-function';

/**
 * Knowledge search no longer loses a small document in a large corpus. Past `exact_below` candidate
 * chunks the search used to walk the HNSW index alone, and HNSW misses outliers: a short refund policy
 * among thousands of handbook chunks has few edges in the graph that lead to it, so the walk never
 * reaches it, at any `ef_search`. Now the application's documents are split by size: the smallest ones,
 * up to `small_below` chunks in all, are compared exactly (cheap, and never wrong), and only the large
 * ones go through the index. The function answers the best `top` of each part; the caller merges them
 * by distance (`PgvectorVectorIndex`).
 *
 * The signature changes (one more argument), so the old function is dropped and the new one created;
 * `down` puts the old one back.
 */
export class KnowledgeSearchSmallDocuments1763820000000 implements MigrationInterface {
  name = 'KnowledgeSearchSmallDocuments1763820000000';

  async up(q: QueryRunner): Promise<void> {
    const vector = (await q.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)) as unknown[];
    if (vector.length === 0) return; // the exact-scan layout searches with plain SQL, exactly
    await q.query(`DROP FUNCTION IF EXISTS knowledge_chunks_nearest(vector, integer, uuid, text, uuid[], integer, integer, integer)`);
    await q.query(`
      CREATE FUNCTION knowledge_chunks_nearest(
        query vector, dims integer, app uuid, chunk_space text, documents uuid[], top integer, ef_search integer,
        exact_below integer, small_below integer
      ) RETURNS TABLE (document_id uuid, chunk_index integer, content text, token_count integer, distance double precision)
      LANGUAGE plpgsql STABLE
      SET hnsw.ef_search = 40 SET hnsw.iterative_scan = off SET enable_seqscan = on SET enable_sort = on
      AS $fn$
      DECLARE
        candidates bigint;
        small uuid[];
        large uuid[];
      BEGIN
        SELECT coalesce(sum(d.chunk_count), 0) INTO candidates FROM knowledge_documents d WHERE d.id = ANY(documents);
        IF candidates <= exact_below THEN
          small := documents;
          large := '{}';
        ELSE
          -- Smallest documents first, as many as fit in small_below chunks together; ties by id, so the split is stable.
          SELECT coalesce(array_agg(s.id) FILTER (WHERE s.running <= small_below), '{}'),
                 coalesce(array_agg(s.id) FILTER (WHERE s.running > small_below), '{}')
            INTO small, large
            FROM (SELECT d.id, sum(d.chunk_count) OVER (ORDER BY d.chunk_count, d.id) AS running
                    FROM knowledge_documents d WHERE d.id = ANY(documents)) s;
        END IF;
        IF cardinality(small) > 0 THEN
          -- Compared exactly. The column is not cast, so no HNSW index matches. A dynamic statement is planned
          -- with the actual documents (a generic plan cannot tell a few documents from the whole application and
          -- scanned all of it), and found by the primary key's document_id.
          IF large <> '{}' THEN
            PERFORM set_config('enable_seqscan', 'off', true);
          END IF;
          RETURN QUERY EXECUTE
            'SELECT c.document_id, c.chunk_index, c.content, c.token_count, (c.embedding_vector <=> $1)::double precision
               FROM knowledge_chunks c
              WHERE c.dimension = $2 AND c.application_id = $3 AND c.space = $4 AND c.document_id = ANY($5)
              ORDER BY c.embedding_vector <=> $1, c.document_id, c.chunk_index
              LIMIT $6'
            USING query, dims, app, chunk_space, small, top;
        END IF;
        IF cardinality(large) = 0 THEN
          RETURN;
        END IF;
        -- pgvector's cost model turns to a full scan and sort when ef_search is high, which is far slower
        -- than the index; for the large documents the index is what we want, so the alternatives are ruled out.
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
          USING query, app, chunk_space, large, top;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    const vector = (await q.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)) as unknown[];
    if (vector.length === 0) return;
    await q.query(`DROP FUNCTION IF EXISTS knowledge_chunks_nearest(vector, integer, uuid, text, uuid[], integer, integer, integer, integer)`);
    await new KnowledgeSearchFunction1763780600000().up(q);
  }
}
