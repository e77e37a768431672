import type { MigrationInterface, QueryRunner } from 'typeorm';
import { KEYWORD_FUNCTION_COUNTING } from './1764500350000-knowledge-hybrid-search';

/**
 * Keyword search that costs the same at 100,000 chunks as at 10,000. `knowledge_chunks_keyword` told an
 * application's rare words from its common ones by counting each query word's chunks through the GIN index,
 * capped at `rare_max + 1` rows; but a GIN index only answers bitmap scans, and the bitmap of a common word
 * holds every chunk that has it before the cap applies, so each common word cost in proportion to the corpus
 * (measured: keyword p50 4.7 ms at 10,000 chunks, 49.6 ms at 100,000).
 *
 * Now each application keeps the number of its chunks holding each word (`knowledge_words`, per embedding
 * space), kept by statement triggers on `knowledge_chunks` as chunks are inserted and deleted (ingestion,
 * re-indexing, document and application deletion alike), and the function reads the query's words' counts
 * with one primary-key lookup. The ranking itself is unchanged: only the rare words' chunks are read.
 *
 * The counts are of all the application's chunks in the space: while a document is being ingested or
 * re-indexed its new chunks count too, so a word near the `rare_max` line may briefly count as common.
 * Rows are locked in key order in both triggers, so two uploads or deletions in one application wait for
 * each other instead of deadlocking.
 */
export class KnowledgeWordCounts1764500480000 implements MigrationInterface {
  name = 'KnowledgeWordCounts1764500480000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE knowledge_words (
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        space text NOT NULL,
        word text NOT NULL,
        chunks integer NOT NULL,
        PRIMARY KEY (application_id, space, word)
      )`);

    await q.query(`
      CREATE FUNCTION knowledge_words_added() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO knowledge_words AS k (application_id, space, word, chunks)
          SELECT a.application_id, a.space, w, count(*)
            FROM added a, unnest(tsvector_to_array(a.tsv)) AS w
           GROUP BY 1, 2, 3
           ORDER BY 1, 2, 3
        ON CONFLICT (application_id, space, word) DO UPDATE SET chunks = k.chunks + excluded.chunks;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE FUNCTION knowledge_words_removed() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        apps uuid[];
        spaces text[];
        gone_words text[];
        counts integer[];
      BEGIN
        SELECT array_agg(g.application_id ORDER BY g.application_id, g.space, g.word), array_agg(g.space ORDER BY g.application_id, g.space, g.word),
               array_agg(g.word ORDER BY g.application_id, g.space, g.word), array_agg(g.n ORDER BY g.application_id, g.space, g.word)
          INTO apps, spaces, gone_words, counts
          FROM (SELECT r.application_id, r.space, w AS word, count(*)::integer AS n
                  FROM removed r, unnest(tsvector_to_array(r.tsv)) AS w
                 GROUP BY 1, 2, 3) g;
        IF apps IS NULL THEN
          RETURN NULL;
        END IF;
        -- Locked in key order first (the insert trigger's order), then counted down; rows at zero go.
        PERFORM 1 FROM knowledge_words k JOIN unnest(apps, spaces, gone_words) AS g(a, s, w) ON k.application_id = g.a AND k.space = g.s AND k.word = g.w
          ORDER BY k.application_id, k.space, k.word FOR UPDATE OF k;
        UPDATE knowledge_words k SET chunks = k.chunks - g.n
          FROM unnest(apps, spaces, gone_words, counts) AS g(a, s, w, n)
         WHERE k.application_id = g.a AND k.space = g.s AND k.word = g.w;
        DELETE FROM knowledge_words k USING unnest(apps, spaces, gone_words) AS g(a, s, w)
         WHERE k.application_id = g.a AND k.space = g.s AND k.word = g.w AND k.chunks <= 0;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER knowledge_words_added AFTER INSERT ON knowledge_chunks
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION knowledge_words_added()`);
    await q.query(`
      CREATE TRIGGER knowledge_words_removed AFTER DELETE ON knowledge_chunks
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION knowledge_words_removed()`);
    // Chunks are never updated in place (a re-index writes a new generation), so no update trigger.
    await q.query(`
      INSERT INTO knowledge_words (application_id, space, word, chunks)
        SELECT c.application_id, c.space, w, count(*)
          FROM knowledge_chunks c, unnest(tsvector_to_array(c.tsv)) AS w
         GROUP BY 1, 2, 3`);

    // \`ROWS 10\` (it answers at most \`top\`, a search's limit): with the default estimate of 1,000 rows the
    // planner joined its answer to \`knowledge_chunks\` (in \`knowledge_chunks_search\`) by a hash join over
    // every chunk, 50 ms at 100,000 chunks, whenever \`knowledge_documents\` had no statistics (on PGlite a
    // table of a few pages never had any).
    // The same answers as before for a settled application, from the counts: the query's words (stemmed, stop
    // words gone, at most 16) held by 1 to rare_max of its chunks are its distinctive ones, weighted by inverse
    // document frequency (the count capped at the documents' chunks, so a document being re-indexed, counted
    // twice, never weighs below zero); a chunk scores the weights of those it holds, ts_rank breaking ties.
    await q.query(`
      CREATE OR REPLACE FUNCTION knowledge_chunks_keyword(query_text text, app uuid, chunk_space text, documents uuid[], top integer, rare_max integer)
      RETURNS TABLE (document_id uuid, chunk_index integer, keyword_score double precision)
      LANGUAGE plpgsql STABLE ROWS 10
      AS $fn$
      DECLARE
        total double precision;
        words text[];
        rare tsquery[];
        weights double precision[];
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
        SELECT array_agg(quote_literal(k.word)::tsquery ORDER BY k.word),
               array_agg(ln((total + 1) / (least(k.chunks, total) + 0.5)) ORDER BY k.word),
               string_agg(quote_literal(k.word), ' | ' ORDER BY k.word)::tsquery
          INTO rare, weights, any_rare
          FROM knowledge_words k
         WHERE k.application_id = app AND k.space = chunk_space AND k.word = ANY(words) AND k.chunks BETWEEN 1 AND rare_max;
        IF rare IS NULL THEN
          RETURN;
        END IF;
        -- Planned with the actual values (a dynamic statement: a custom plan), like the vector side's statements.
        -- A generic plan cannot tell which way is cheap: through the GIN index, whose bitmap holds a word's chunks
        -- in every application (few when the words are rare everywhere), or through this application's own chunks
        -- (fewer when the words are rare here but common in a larger application beside it).
        RETURN QUERY EXECUTE
          'SELECT c.document_id, c.chunk_index,
                  (SELECT sum(r.weight) FROM unnest($1, $2) AS r(q, weight) WHERE c.tsv @@ r.q) + ts_rank(c.tsv, $3) / 100
             FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id AND d.generation = c.generation
            WHERE c.tsv @@ $3 AND c.application_id = $4 AND c.space = $5 AND c.document_id = ANY($6)
            ORDER BY 3 DESC, 1, 2
            LIMIT $7'
          USING rare, weights, any_rare, app, chunk_space, documents, top;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION knowledge_chunks_keyword(text, uuid, text, uuid[], integer, integer)`);
    await q.query(KEYWORD_FUNCTION_COUNTING);
    await q.query(`DROP TRIGGER knowledge_words_removed ON knowledge_chunks`);
    await q.query(`DROP TRIGGER knowledge_words_added ON knowledge_chunks`);
    await q.query(`DROP FUNCTION knowledge_words_removed()`);
    await q.query(`DROP FUNCTION knowledge_words_added()`);
    await q.query(`DROP TABLE knowledge_words`);
  }
}
