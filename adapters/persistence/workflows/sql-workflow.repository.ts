import type { DataSource } from 'typeorm';
import type { StepKind, WorkflowDefinition } from '../../../core/workflows/domain/definition';
import type { RunStatus, RunTrigger, StepRecord, Workflow, WorkflowRun } from '../../../core/workflows/domain/workflow';
import type { NewWorkflow, StepCommit, WorkflowRepository } from '../../../core/workflows/ports/workflow-repository.port';
import { visibleApplicationIds } from '../teams/visibility';
import { affected, one, rows } from '../sql';

interface WorkflowRow {
  id: string;
  owner_id: string;
  application_id: string;
  name: string;
  description: string;
  version: number;
  definition: WorkflowDefinition | string;
  paused: boolean;
  secrets_sealed: Record<string, string> | string;
  created_at: Date | string;
  updated_at: Date | string;
}

interface RunRow {
  id: string;
  workflow_id: string;
  owner_id: string;
  application_id: string;
  version: number;
  definition: WorkflowDefinition | string;
  status: RunStatus;
  trigger: RunTrigger;
  input: unknown;
  output: unknown;
  error: string | null;
  current_step: string | null;
  steps_done: number;
  tokens_used: number;
  wake_at: Date | string | null;
  deadline_at: Date | string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

interface StepRow {
  seq: number;
  step_id: string;
  kind: StepKind;
  status: 'completed' | 'failed';
  input: unknown;
  output: unknown;
  error: string | null;
  attempts: number;
  tokens: number;
  duration_ms: number;
  started_at: Date | string;
  finished_at: Date | string;
}

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const dateOrNull = (v: Date | string | null): Date | null => (v === null ? null : date(v));
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
/** JSON for a jsonb parameter: PostgreSQL's jsonb refuses the NUL character, so it is dropped. */
const jsonb = (v: unknown): string => JSON.stringify(v === undefined ? null : v).replace(/(?<!\\)\\u0000/g, '');

const toWorkflow = (r: WorkflowRow): Workflow => ({
  id: r.id,
  ownerId: r.owner_id,
  applicationId: r.application_id,
  name: r.name,
  description: r.description,
  version: Number(r.version),
  definition: json(r.definition),
  paused: r.paused,
  secretsSealed: json(r.secrets_sealed ?? {}),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

const toRun = (r: RunRow): WorkflowRun => ({
  id: r.id,
  workflowId: r.workflow_id,
  ownerId: r.owner_id,
  applicationId: r.application_id,
  version: Number(r.version),
  definition: json(r.definition),
  status: r.status,
  trigger: r.trigger,
  input: r.input ?? null,
  output: r.output ?? null,
  error: r.error,
  currentStep: r.current_step,
  stepsDone: Number(r.steps_done),
  tokensUsed: Number(r.tokens_used),
  wakeAt: dateOrNull(r.wake_at),
  deadlineAt: dateOrNull(r.deadline_at),
  createdAt: date(r.created_at),
  startedAt: dateOrNull(r.started_at),
  finishedAt: dateOrNull(r.finished_at),
});

const toStep = (r: StepRow): StepRecord => ({
  seq: Number(r.seq),
  stepId: r.step_id,
  kind: r.kind,
  status: r.status,
  input: r.input ?? null,
  output: r.output ?? null,
  error: r.error,
  attempts: Number(r.attempts),
  tokens: Number(r.tokens),
  durationMs: Number(r.duration_ms),
  startedAt: date(r.started_at),
  finishedAt: date(r.finished_at),
});

const RUN_COLUMNS = `id, workflow_id, owner_id, application_id, version, definition, status, trigger, input, output, error, current_step,
  steps_done, tokens_used, wake_at, deadline_at, created_at, started_at, finished_at`;

/** Workflows on PostgreSQL / PGlite; every write that must be atomic is one statement. */
export class SqlWorkflowRepository implements WorkflowRepository {
  constructor(private readonly db: DataSource) {}

  async create(w: NewWorkflow): Promise<Workflow> {
    const row = await one<WorkflowRow>(
      this.db,
      `INSERT INTO workflows (id, owner_id, application_id, name, description, definition, schedule_cron, trigger_event, secrets_sealed)
       VALUES (COALESCE($8::uuid, gen_random_uuid()), $1, $2, $3, $4, $5::jsonb, $6, $7, $9::jsonb) RETURNING *`,
      [w.ownerId, w.applicationId, w.name, w.description, jsonb(w.definition), w.definition.trigger.schedule?.cron ?? null, w.definition.trigger.event ?? null, w.id ?? null, jsonb(w.secretsSealed ?? {})],
    );
    return toWorkflow(row!);
  }

  async findById(id: string): Promise<Workflow | null> {
    const row = await one<WorkflowRow>(this.db, `SELECT * FROM workflows WHERE id = $1`, [id]);
    return row ? toWorkflow(row) : null;
  }

  async listByOwner(ownerId: string, applicationId: string | undefined, offset: number, limit: number): Promise<{ items: Workflow[]; total: number }> {
    const filter = applicationId ? `owner_id = $1 AND application_id = $4` : `owner_id = $1`;
    const params = applicationId ? [ownerId, limit, offset, applicationId] : [ownerId, limit, offset];
    const items = await rows<WorkflowRow>(this.db, `SELECT * FROM workflows WHERE ${filter} ORDER BY created_at, id LIMIT $2 OFFSET $3`, params);
    const total = (
      await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM workflows WHERE owner_id = $1 AND ($2::uuid IS NULL OR application_id = $2::uuid)`, [ownerId, applicationId ?? null])
    )?.n ?? 0;
    return { items: items.map(toWorkflow), total };
  }

  async listVisible(userId: string, teamId: string | null | undefined, offset: number, limit: number): Promise<{ items: Workflow[]; total: number }> {
    const team = teamId ? [teamId] : [];
    const items = await rows<WorkflowRow>(
      this.db,
      `SELECT * FROM workflows WHERE application_id IN (${visibleApplicationIds(teamId, '$1', '$4')}) ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [userId, limit, offset, ...team],
    );
    const total =
      (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM workflows WHERE application_id IN (${visibleApplicationIds(teamId, '$1', '$2')})`, [userId, ...team]))?.n ?? 0;
    return { items: items.map(toWorkflow), total };
  }

  async update(id: string, changes: Partial<Pick<Workflow, 'name' | 'description' | 'definition' | 'secretsSealed'>>): Promise<Workflow | null> {
    const row = await one<WorkflowRow>(
      this.db,
      `UPDATE workflows SET
         name = COALESCE($2, name),
         description = COALESCE($3, description),
         definition = COALESCE($4::jsonb, definition),
         version = version + CASE WHEN $4::jsonb IS NULL OR $4::jsonb = definition THEN 0 ELSE 1 END,
         schedule_cron = CASE WHEN $4::jsonb IS NULL THEN schedule_cron ELSE $5 END,
         trigger_event = CASE WHEN $4::jsonb IS NULL THEN trigger_event ELSE $6 END,
         secrets_sealed = COALESCE($7::jsonb, secrets_sealed),
         updated_at = clock_timestamp()
       WHERE id = $1 RETURNING *`,
      [
        id,
        changes.name ?? null,
        changes.description ?? null,
        changes.definition ? jsonb(changes.definition) : null,
        changes.definition?.trigger.schedule?.cron ?? null,
        changes.definition?.trigger.event ?? null,
        changes.secretsSealed ? jsonb(changes.secretsSealed) : null,
      ],
    );
    return row ? toWorkflow(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM workflows WHERE id = $1`, [id])) > 0;
  }

  async setPaused(id: string, paused: boolean): Promise<Workflow | null> {
    const row = await one<WorkflowRow>(this.db, `UPDATE workflows SET paused = $2, updated_at = clock_timestamp() WHERE id = $1 RETURNING *`, [id, paused]);
    return row ? toWorkflow(row) : null;
  }

  async withSchedules(): Promise<Workflow[]> {
    return (await rows<WorkflowRow>(this.db, `SELECT * FROM workflows WHERE schedule_cron IS NOT NULL ORDER BY created_at`)).map(toWorkflow);
  }

  async listByEvent(ownerId: string, applicationId: string | null, type: string): Promise<Workflow[]> {
    return (
      await rows<WorkflowRow>(
        this.db,
        `SELECT * FROM workflows WHERE owner_id = $1 AND trigger_event = $2 AND ($3::uuid IS NULL OR application_id = $3::uuid) ORDER BY created_at LIMIT 100`,
        [ownerId, type, applicationId],
      )
    ).map(toWorkflow);
  }

  async createRun(r: { workflow: Workflow; trigger: RunTrigger; input: unknown; status: 'queued' | 'running'; dedupeKey?: string }): Promise<WorkflowRun | null> {
    const w = r.workflow;
    const row = await one<RunRow>(
      this.db,
      `INSERT INTO workflow_runs (workflow_id, owner_id, application_id, version, definition, status, trigger, input, current_step, dedupe_key)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::jsonb, $9, $10) ON CONFLICT (dedupe_key) DO NOTHING RETURNING ${RUN_COLUMNS}`,
      [w.id, w.ownerId, w.applicationId, w.version, jsonb(w.definition), r.status, r.trigger, jsonb(r.input), w.definition.steps[0]!.id, r.dedupeKey ?? null],
    );
    return row ? toRun(row) : null;
  }

  async findRun(id: string): Promise<WorkflowRun | null> {
    const row = await one<RunRow>(this.db, `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE id = $1`, [id]);
    return row ? toRun(row) : null;
  }

  async listRuns(workflowId: string, offset: number, limit: number): Promise<{ items: WorkflowRun[]; total: number }> {
    const items = await rows<RunRow>(this.db, `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE workflow_id = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`, [workflowId, limit, offset]);
    const total = (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM workflow_runs WHERE workflow_id = $1`, [workflowId]))?.n ?? 0;
    return { items: items.map(toRun), total };
  }

  async steps(runId: string): Promise<StepRecord[]> {
    return (await rows<StepRow>(this.db, `SELECT * FROM workflow_run_steps WHERE run_id = $1 ORDER BY seq`, [runId])).map(toStep);
  }

  async releaseQueued(workflowId: string): Promise<string[]> {
    const released = await rows<{ id: string; seq: string }>(
      this.db,
      `UPDATE workflow_runs SET status = 'running' WHERE workflow_id = $1 AND status = 'queued' RETURNING id, seq`,
      [workflowId],
    );
    return released.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.id);
  }

  async cancel(runId: string): Promise<WorkflowRun | null> {
    const row = await one<RunRow>(
      this.db,
      `UPDATE workflow_runs SET status = 'cancelled', error = 'Cancelled', finished_at = clock_timestamp(), lease_token = NULL, lease_until = NULL, wake_at = NULL
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${RUN_COLUMNS}`,
      [runId],
    );
    return row ? toRun(row) : this.findRun(runId);
  }

  async claim(runId: string, leaseToken: string, leaseMs: number, timeoutMs: number): Promise<WorkflowRun | null> {
    const row = await one<RunRow>(
      this.db,
      `UPDATE workflow_runs r SET lease_token = $2, lease_until = clock_timestamp() + $3::int * interval '1 millisecond',
              started_at = COALESCE(r.started_at, clock_timestamp()),
              deadline_at = COALESCE(r.deadline_at, clock_timestamp() + $4::int * interval '1 millisecond')
        WHERE r.id = $1 AND r.status = 'running'
          AND (r.lease_until IS NULL OR r.lease_until < clock_timestamp())
          AND (r.wake_at IS NULL OR r.wake_at <= clock_timestamp())
          AND NOT EXISTS (SELECT 1 FROM workflow_runs e WHERE e.workflow_id = r.workflow_id AND e.seq < r.seq AND e.status IN ('queued', 'running') AND e.started_at IS NULL)
        RETURNING ${RUN_COLUMNS.replace(/(\w+)/g, 'r.$1')}`,
      [runId, leaseToken, leaseMs, timeoutMs],
    );
    return row ? toRun(row) : null;
  }

  async renew(runId: string, leaseToken: string, leaseMs: number): Promise<boolean> {
    return (
      (await affected(
        this.db,
        `UPDATE workflow_runs SET lease_until = clock_timestamp() + $3::int * interval '1 millisecond' WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
        [runId, leaseToken, leaseMs],
      )) > 0
    );
  }

  async commitStep(c: StepCommit): Promise<boolean> {
    const r = c.record;
    const done = await rows<{ seq: number }>(
      this.db,
      `WITH moved AS (
         UPDATE workflow_runs SET
           current_step = $3,
           steps_done = steps_done + 1,
           tokens_used = tokens_used + $4,
           wake_at = NULL,
           status = COALESCE($5::text, status),
           output = CASE WHEN $5::text IS NULL THEN output ELSE $6::jsonb END,
           error = CASE WHEN $5::text IS NULL THEN error ELSE $7::text END,
           finished_at = CASE WHEN $5::text IS NULL THEN NULL ELSE clock_timestamp() END,
           lease_token = CASE WHEN $5::text IS NULL THEN lease_token ELSE NULL END,
           lease_until = CASE WHEN $5::text IS NULL THEN lease_until ELSE NULL END
         WHERE id = $1 AND lease_token = $2 AND status = 'running'
         RETURNING id, steps_done)
       INSERT INTO workflow_run_steps (run_id, seq, step_id, kind, status, input, output, error, attempts, tokens, duration_ms, started_at, finished_at)
       SELECT id, steps_done, $8, $9, $10, $11::jsonb, $12::jsonb, $13, $14, $15, $16, $17, $18 FROM moved
       RETURNING seq`,
      [
        c.runId,
        c.leaseToken,
        c.nextStep,
        c.tokens,
        c.finish?.status ?? null,
        jsonb(c.finish?.output ?? null),
        c.finish?.error ?? null,
        r.stepId,
        r.kind,
        r.status,
        jsonb(r.input),
        jsonb(r.output),
        r.error,
        r.attempts,
        r.tokens,
        r.durationMs,
        r.startedAt,
        r.finishedAt,
      ],
    );
    return done.length > 0;
  }

  async sleep(runId: string, leaseToken: string, wakeAt: Date): Promise<boolean> {
    return (
      (await affected(
        this.db,
        `UPDATE workflow_runs SET wake_at = $3, lease_token = NULL, lease_until = NULL WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
        [runId, leaseToken, wakeAt],
      )) > 0
    );
  }

  async fail(runId: string, leaseToken: string, error: string): Promise<boolean> {
    return (
      (await affected(
        this.db,
        `UPDATE workflow_runs SET status = 'failed', error = $3, finished_at = clock_timestamp(), lease_token = NULL, lease_until = NULL
          WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
        [runId, leaseToken, error],
      )) > 0
    );
  }

  async dueRuns(limit: number): Promise<string[]> {
    return (
      await rows<{ id: string }>(
        this.db,
        `SELECT id FROM workflow_runs WHERE status = 'running' AND (lease_until IS NULL OR lease_until < clock_timestamp())
            AND (wake_at IS NULL OR wake_at <= clock_timestamp()) ORDER BY seq LIMIT $1`,
        [limit],
      )
    ).map((r) => r.id);
  }
}
