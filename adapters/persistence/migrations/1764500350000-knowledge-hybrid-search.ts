import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyword candidates: the query's words as the English configuration stems them (stop words gone), each
 * counted among the documents' live chunks up to rare_max + 1 through the GIN index; the words found in at
 * most rare_max chunks are the query's distinctive ones (a part number, a name), weighted by inverse
 * document frequency, and a chunk scores the weights of those it holds (ts_rank breaks ties). Counting is
 * capped and common words never reach the ranking, so a question full of everyday words does not rank
 * half the application: it costs at most (rare_max + 1) rows per word.
 * (Replaced by per-application word counts in `1764500480000-knowledge-word-counts`; kept for its `down`.)
 */
export const KEYWORD_FUNCTION_COUNTING = `
      CREATE FUNCTION knowledge_chunks_keyword(query_text text, app uuid, chunk_space text, documents uuid[], top integer, rare_max integer)
      RETURNS TABLE (document_id uuid, chunk_index integer, keyword_score double precision)
      LANGUAGE plpgsql STABLE
      AS $fn$
      DECLARE
        total double precision;
        words text[];
        word text;
        found bigint;
        rare tsquery[] := '{}';
        rare_words text[] := '{}';
        weights double precision[] := '{}';
        any_rare tsquery;
      BEGIN
        IF query_text IS NULL OR cardinality(documents) = 0 THEN
          RETURN;
        END IF;
        SELECT array_agg(w ORDER BY w) INTO words
          FROM (SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('english'::regconfig, left(query_text, 2000)))) AS w LIMIT 16) u;
        IF words IS NULL THEN
          RETURN;
        END IF;
        SELECT greatest(1, coalesce(sum(d.chunk_count), 0)) INTO total FROM knowledge_documents d WHERE d.id = ANY(documents);
        FOREACH word IN ARRAY words LOOP
          SELECT count(*) INTO found FROM (
            SELECT 1 FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id AND d.generation = c.generation
             WHERE c.tsv @@ quote_literal(word)::tsquery AND c.application_id = app AND c.space = chunk_space AND c.document_id = ANY(documents)
             LIMIT rare_max + 1) x;
          IF found BETWEEN 1 AND rare_max THEN
            rare := rare || quote_literal(word)::tsquery;
            rare_words := rare_words || word;
            weights := weights || ln((total + 1) / (found + 0.5));
          END IF;
        END LOOP;
        IF cardinality(rare) = 0 THEN
          RETURN;
        END IF;
        any_rare := (SELECT string_agg(quote_literal(w), ' | ') FROM unnest(rare_words) AS w)::tsquery;
        RETURN QUERY
          SELECT c.document_id, c.chunk_index,
                 (SELECT sum(r.weight) FROM unnest(rare, weights) AS r(q, weight) WHERE c.tsv @@ r.q) + ts_rank(c.tsv, any_rare) / 100
            FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id AND d.generation = c.generation
           WHERE c.tsv @@ any_rare AND c.application_id = app AND c.space = chunk_space AND c.document_id = ANY(documents)
           ORDER BY 3 DESC, 1, 2
           LIMIT top;
      END
      $fn$`;

/**
 * Knowledge that finds what people ask for (issue 35):
 * - PDF and DOCX documents; a document's content hash, unique per application (the same file twice is
 *   refused naming the first).
 * - Chunks carry their place (`page`, `section` heading path) and a `generation`: re-indexing writes the
 *   new generation beside the live one and switches `knowledge_documents.generation` in one statement, so
 *   search never sees the document missing; the primary key takes the generation in.
 * - Full-text search: a stored `tsv` (English configuration, heading path and text) with a GIN index, and
 *   `knowledge_chunks_keyword`, which ranks an application's chunks by the query's rare words.
 * - `knowledge_chunks_search` (where pgvector is installed) answers the vector candidates (as
 *   `knowledge_chunks_nearest` did, live generation only) and the keyword candidates with their cosine
 *   distance, in one call; the caller fuses them by reciprocal rank.
 * - Applications choose their retrieval mode (`hybrid` by default).
 */
export class KnowledgeHybridSearch1764500350000 implements MigrationInterface {
  name = 'KnowledgeHybridSearch1764500350000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE knowledge_documents DROP CONSTRAINT knowledge_documents_format_check`);
    await q.query(`ALTER TABLE knowledge_documents ADD CONSTRAINT knowledge_documents_format_check CHECK (format IN ('txt', 'md', 'json', 'csv', 'html', 'xml', 'pdf', 'docx'))`);
    await q.query(`
      ALTER TABLE knowledge_documents
        ADD COLUMN content_hash text,
        ADD COLUMN generation integer NOT NULL DEFAULT 0,
        ADD COLUMN pending_generation integer,
        ADD COLUMN pending_chunk_size integer,
        ADD COLUMN pending_chunk_overlap integer`);
    await q.query(`CREATE UNIQUE INDEX knowledge_documents_content_key ON knowledge_documents (application_id, content_hash)`);

    await q.query(`ALTER TABLE knowledge_chunks ADD COLUMN generation integer NOT NULL DEFAULT 0, ADD COLUMN page integer, ADD COLUMN section text`);
    await q.query(`ALTER TABLE knowledge_chunks DROP CONSTRAINT knowledge_chunks_pkey`);
    await q.query(`ALTER TABLE knowledge_chunks ADD PRIMARY KEY (document_id, generation, chunk_index)`);
    await q.query(`ALTER TABLE knowledge_chunks ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(section, '') || ' ' || content)) STORED`);
    await q.query(`CREATE INDEX knowledge_chunks_tsv_idx ON knowledge_chunks USING gin (tsv)`);

    await q.query(`ALTER TABLE applications ADD COLUMN retrieval_mode text NOT NULL DEFAULT 'hybrid' CHECK (retrieval_mode IN ('hybrid', 'vector', 'keyword'))`);

    await q.query(KEYWORD_FUNCTION_COUNTING);

    const vector = (await q.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)) as unknown[];
    if (vector.length === 0) return; // the exact-scan layout searches with plain SQL (and the keyword function)
    await q.query(`
      CREATE FUNCTION knowledge_chunks_search(
        query vector, query_text text, search_mode text, dims integer, app uuid, chunk_space text, documents uuid[], top integer,
        ef_search integer, exact_below integer, small_below integer, rare_max integer
      ) RETURNS TABLE (document_id uuid, chunk_index integer, content text, token_count integer, page integer, section text,
                       distance double precision, keyword_score double precision)
      LANGUAGE plpgsql STABLE
      SET hnsw.ef_search = 40 SET hnsw.iterative_scan = off SET enable_seqscan = on SET enable_sort = on
      AS $fn$
      DECLARE
        candidates bigint;
        small uuid[];
        large uuid[];
      BEGIN
        IF search_mode <> 'vector' THEN
          -- Keyword candidates first, with their cosine distance: the caller ranks them by meaning too.
          RETURN QUERY
            SELECT c.document_id, c.chunk_index, c.content, c.token_count, c.page, c.section,
                   (c.embedding_vector <=> query)::double precision, k.keyword_score
              FROM knowledge_chunks_keyword(query_text, app, chunk_space, documents, top, rare_max) k
              JOIN knowledge_documents d ON d.id = k.document_id
              JOIN knowledge_chunks c ON c.document_id = k.document_id AND c.generation = d.generation AND c.chunk_index = k.chunk_index;
        END IF;
        IF search_mode = 'keyword' THEN
          RETURN;
        END IF;
        SELECT coalesce(sum(d.chunk_count), 0) INTO candidates FROM knowledge_documents d WHERE d.id = ANY(documents);
        IF candidates <= exact_below THEN
          small := documents;
          large := '{}';
        ELSE
          SELECT coalesce(array_agg(s.id) FILTER (WHERE s.running <= small_below), '{}'),
                 coalesce(array_agg(s.id) FILTER (WHERE s.running > small_below), '{}')
            INTO small, large
            FROM (SELECT d.id, sum(d.chunk_count) OVER (ORDER BY d.chunk_count, d.id) AS running
                    FROM knowledge_documents d WHERE d.id = ANY(documents)) s;
        END IF;
        IF cardinality(small) > 0 THEN
          IF large <> '{}' THEN
            PERFORM set_config('enable_seqscan', 'off', true);
          END IF;
          RETURN QUERY EXECUTE
            'SELECT c.document_id, c.chunk_index, c.content, c.token_count, c.page, c.section,
                    (c.embedding_vector <=> $1)::double precision, NULL::double precision
               FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id AND d.generation = c.generation
              WHERE c.dimension = $2 AND c.application_id = $3 AND c.space = $4 AND c.document_id = ANY($5)
              ORDER BY c.embedding_vector <=> $1, c.document_id, c.chunk_index
              LIMIT $6'
            USING query, dims, app, chunk_space, small, top;
        END IF;
        IF cardinality(large) = 0 THEN
          RETURN;
        END IF;
        PERFORM set_config('hnsw.ef_search', least(1000, greatest(ef_search, top))::text, true);
        PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true);
        PERFORM set_config('enable_seqscan', 'off', true);
        PERFORM set_config('enable_sort', 'off', true);
        -- The live generation is checked per candidate the walk yields (a primary-key lookup), which keeps
        -- the index scan's order; a re-index's new chunks stay out until the switch.
        RETURN QUERY EXECUTE format(
          'SELECT c.document_id, c.chunk_index, c.content, c.token_count, c.page, c.section,
                  ((c.embedding_vector::vector(%1$s)) <=> $1::vector(%1$s))::double precision, NULL::double precision
             FROM knowledge_chunks c
            WHERE c.dimension = %1$s AND c.application_id = $2 AND c.space = $3 AND c.document_id = ANY($4)
              AND c.generation = (SELECT d.generation FROM knowledge_documents d WHERE d.id = c.document_id)
            ORDER BY (c.embedding_vector::vector(%1$s)) <=> $1::vector(%1$s)
            LIMIT $5', dims)
          USING query, app, chunk_space, large, top;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS knowledge_chunks_search(vector, text, text, integer, uuid, text, uuid[], integer, integer, integer, integer, integer)`);
    await q.query(`DROP FUNCTION IF EXISTS knowledge_chunks_keyword(text, uuid, text, uuid[], integer, integer)`);
    await q.query(`ALTER TABLE applications DROP COLUMN retrieval_mode`);
    await q.query(`DROP INDEX knowledge_chunks_tsv_idx`);
    await q.query(`ALTER TABLE knowledge_chunks DROP COLUMN tsv`);
    await q.query(`DELETE FROM knowledge_chunks c USING knowledge_documents d WHERE d.id = c.document_id AND c.generation <> d.generation`);
    await q.query(`ALTER TABLE knowledge_chunks DROP CONSTRAINT knowledge_chunks_pkey`);
    await q.query(`ALTER TABLE knowledge_chunks ADD PRIMARY KEY (document_id, chunk_index)`);
    await q.query(`ALTER TABLE knowledge_chunks DROP COLUMN generation, DROP COLUMN page, DROP COLUMN section`);
    await q.query(`DROP INDEX knowledge_documents_content_key`);
    await q.query(`DELETE FROM knowledge_documents WHERE format IN ('pdf', 'docx')`);
    await q.query(`
      ALTER TABLE knowledge_documents DROP COLUMN content_hash, DROP COLUMN generation, DROP COLUMN pending_generation,
        DROP COLUMN pending_chunk_size, DROP COLUMN pending_chunk_overlap`);
    await q.query(`ALTER TABLE knowledge_documents DROP CONSTRAINT knowledge_documents_format_check`);
    await q.query(`ALTER TABLE knowledge_documents ADD CONSTRAINT knowledge_documents_format_check CHECK (format IN ('txt', 'md', 'json', 'csv', 'html', 'xml'))`);
  }
}
