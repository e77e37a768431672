import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A/B tests scored by an evaluator (docs/ab-tests.md, docs/evaluations.md): evaluators kept by name per application,
 * each test's sampling settings, and the live answers sampled for scoring with their scores. A sample is claimed
 * atomically with a lease (`claimed_until`), so it is scored once and a restart resumes what was left; an
 * evaluator scores an answer once however many times its event is handed over.
 */
export class LiveAnswerScores1764601200000 implements MigrationInterface {
  name = 'LiveAnswerScores1764601200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE evaluation_evaluators (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        spec jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX evaluation_evaluators_application ON evaluation_evaluators (application_id, created_at)`);
    await q.query(`
      ALTER TABLE experiments
        ADD COLUMN sample_rate double precision NOT NULL DEFAULT 0.2 CHECK (sample_rate > 0 AND sample_rate <= 1),
        ADD COLUMN samples_per_hour integer NOT NULL DEFAULT 60 CHECK (samples_per_hour >= 1)`);
    await q.query(`
      CREATE TABLE live_answer_scores (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        evaluator_id uuid NOT NULL REFERENCES evaluation_evaluators(id) ON DELETE CASCADE,
        message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        arm text NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
        claimed_until timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        score double precision CHECK (score >= 0 AND score <= 1),
        passed boolean,
        reason text,
        error text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        scored_at timestamptz,
        CONSTRAINT live_answer_scores_once UNIQUE (evaluator_id, message_id)
      )`);
    await q.query(`CREATE INDEX live_answer_scores_experiment ON live_answer_scores (experiment_id, created_at)`);
    await q.query(`CREATE INDEX live_answer_scores_waiting ON live_answer_scores (experiment_id, created_at) WHERE state IN ('pending', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE live_answer_scores`);
    await q.query(`ALTER TABLE experiments DROP COLUMN sample_rate, DROP COLUMN samples_per_hour`);
    await q.query(`DROP TABLE evaluation_evaluators`);
  }
}
