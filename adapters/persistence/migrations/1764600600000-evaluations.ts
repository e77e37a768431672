import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Evaluations (docs/evaluations.md): datasets per application whose items are versioned (an item belongs to the
 * versions from `added_version` up to, not including, `removed_version`), runs that record the dataset version
 * they used, and one result row per item and target, claimed atomically so an item is answered once.
 */
export class Evaluations1764600600000 implements MigrationInterface {
  name = 'Evaluations1764600600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE evaluation_datasets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX evaluation_datasets_application ON evaluation_datasets (application_id, created_at)`);
    await q.query(`
      CREATE TABLE evaluation_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        dataset_id uuid NOT NULL REFERENCES evaluation_datasets(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        input jsonb NOT NULL,
        expected text,
        tags jsonb NOT NULL DEFAULT '[]',
        added_version integer NOT NULL,
        removed_version integer,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX evaluation_items_dataset ON evaluation_items (dataset_id, seq)`);
    await q.query(`
      CREATE TABLE evaluation_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        dataset_id uuid NOT NULL REFERENCES evaluation_datasets(id) ON DELETE CASCADE,
        dataset_version integer NOT NULL,
        name text NOT NULL DEFAULT '',
        targets jsonb NOT NULL,
        evaluators jsonb NOT NULL,
        pass_threshold double precision,
        concurrency integer NOT NULL DEFAULT 2,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'cancelled', 'failed')),
        trigger text NOT NULL DEFAULT 'console' CHECK (trigger IN ('console', 'api')),
        total integer NOT NULL DEFAULT 0,
        error text,
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX evaluation_runs_application ON evaluation_runs (application_id, created_at)`);
    await q.query(`CREATE INDEX evaluation_runs_running ON evaluation_runs (status) WHERE status = 'running'`);
    await q.query(`
      CREATE TABLE evaluation_results (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        run_id uuid NOT NULL REFERENCES evaluation_runs(id) ON DELETE CASCADE,
        item_id uuid NOT NULL REFERENCES evaluation_items(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        target_index integer NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed', 'cancelled')),
        claimed_until timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        answer text,
        scores jsonb NOT NULL DEFAULT '[]',
        passed boolean,
        prompt_tokens integer,
        completion_tokens integer,
        cost double precision,
        latency_ms integer,
        conversation_id uuid,
        message_id uuid,
        error text,
        finished_at timestamptz,
        CONSTRAINT evaluation_results_once UNIQUE (run_id, item_id, target_index)
      )`);
    await q.query(`CREATE INDEX evaluation_results_pending ON evaluation_results (run_id, state, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE evaluation_results`);
    await q.query(`DROP TABLE evaluation_runs`);
    await q.query(`DROP TABLE evaluation_items`);
    await q.query(`DROP TABLE evaluation_datasets`);
  }
}
