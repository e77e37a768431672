import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A/B tests that decide (docs/ab-tests.md): one test per model config, with its goal, minimum effect,
 * significance, switches, when it started (only later answers count) and its decision.
 */
export class Experiments1764600700000 implements MigrationInterface {
  name = 'Experiments1764600700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE experiments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        config_id uuid NOT NULL UNIQUE REFERENCES model_configs(id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        goal text NOT NULL CHECK (goal IN ('rating', 'thumbs_up_rate', 'cost_per_conversation', 'evaluator_score')),
        evaluator_id uuid,
        minimum_effect double precision NOT NULL CHECK (minimum_effect > 0),
        significance double precision NOT NULL CHECK (significance > 0 AND significance < 1),
        auto_promote boolean NOT NULL DEFAULT false,
        guardrails jsonb NOT NULL DEFAULT '[]'::jsonb,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'winner', 'no_difference', 'promoted')),
        started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        winner_arm text,
        decided_at timestamptz,
        promoted_at timestamptz,
        rolled_back jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX experiments_application_idx ON experiments (application_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE experiments`);
  }
}
