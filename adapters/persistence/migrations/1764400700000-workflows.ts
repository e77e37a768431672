import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workflows (a versioned graph of steps per application), their runs and each run's step records. A run
 * keeps the definition it started with; a lease (`lease_token`, `lease_until`) says which process runs it.
 */
export class Workflows1764400700000 implements MigrationInterface {
  name = 'Workflows1764400700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflows (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        version integer NOT NULL DEFAULT 1,
        definition jsonb NOT NULL,
        paused boolean NOT NULL DEFAULT false,
        -- Values for {{secrets.NAME}} in http headers, each sealed (SecretBox) and bound to the workflow and name.
        secrets_sealed jsonb NOT NULL DEFAULT '{}'::jsonb,
        schedule_cron text,
        trigger_event text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX workflows_owner ON workflows (owner_id, created_at)`);
    await q.query(`CREATE INDEX workflows_event ON workflows (owner_id, trigger_event) WHERE trigger_event IS NOT NULL`);
    await q.query(`
      CREATE TABLE workflow_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL,
        workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
        owner_id uuid NOT NULL,
        application_id uuid NOT NULL,
        version integer NOT NULL,
        definition jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        trigger text NOT NULL CHECK (trigger IN ('manual', 'api', 'schedule', 'event')),
        -- Set for runs started by a platform event: the same event starts a workflow once, whichever instance sees it.
        dedupe_key text UNIQUE,
        input jsonb,
        output jsonb,
        error text,
        current_step text,
        steps_done integer NOT NULL DEFAULT 0,
        tokens_used integer NOT NULL DEFAULT 0,
        wake_at timestamptz,
        lease_token uuid,
        lease_until timestamptz,
        deadline_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX workflow_runs_workflow ON workflow_runs (workflow_id, seq)`);
    await q.query(`CREATE INDEX workflow_runs_active ON workflow_runs (seq) WHERE status IN ('queued', 'running')`);
    await q.query(`
      CREATE TABLE workflow_run_steps (
        run_id uuid NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        step_id text NOT NULL,
        kind text NOT NULL,
        status text NOT NULL CHECK (status IN ('completed', 'failed')),
        input jsonb,
        output jsonb,
        error text,
        attempts integer NOT NULL,
        tokens integer NOT NULL DEFAULT 0,
        duration_ms integer NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL,
        PRIMARY KEY (run_id, seq)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workflow_run_steps`);
    await q.query(`DROP TABLE workflow_runs`);
    await q.query(`DROP TABLE workflows`);
  }
}
