import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../adapters/persistence/data-source';
import { SqlWorkflowRepository } from '../adapters/persistence/workflows/sql-workflow.repository';
import { JsonataConditionEvaluator } from '../adapters/workflows/jsonata.condition-evaluator';
import { pgliteThreadSetting } from '../apps/shared/config';
import type { ApplicationRepository } from '../core/applications/ports/application-repository.port';
import { noEvents } from '../core/events/ports/event-publisher.port';
import { systemClock } from '../core/shared/clock.port';
import { parseDefinition } from '../core/workflows/domain/definition';
import type { StepRecord, Workflow, WorkflowRun } from '../core/workflows/domain/workflow';
import type { StepCommit, WorkflowRepository } from '../core/workflows/ports/workflow-repository.port';
import { StepRunner } from '../core/workflows/use-cases/step-runner';
import { WorkflowEngine } from '../core/workflows/use-cases/workflow-engine';

/**
 * `npm run bench:workflows`: the engine's own cost per step, with a no-op step (a `template` step rendering a
 * constant), so what is measured is the engine: limit checks, reference scope, the step record and the run's
 * progress written in one statement per step. Two settings: the engine against the SQL repository on the
 * embedded PGlite (or `BENCH_DATABASE_URL`), and against a repository in memory (the engine's CPU alone).
 * Runs of `STEPS` steps (the most a workflow holds), `BENCH_RUNS` times each, one after another.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const STEPS = 100;

const noHttp = { request: async () => Promise.reject(new Error('not used')) };
const applications = {} as ApplicationRepository;

/** Just what the engine calls, in memory, with the same semantics (lease, step records, progress). */
class MemoryRuns implements Pick<WorkflowRepository, 'findRun' | 'claim' | 'renew' | 'steps' | 'commitStep' | 'fail' | 'sleep'> {
  readonly runs = new Map<string, WorkflowRun & { lease: string | null }>();
  readonly records = new Map<string, StepRecord[]>();
  async findRun(id: string) {
    return this.runs.get(id) ?? null;
  }
  async claim(id: string, token: string) {
    const run = this.runs.get(id);
    if (!run || run.status !== 'running' || run.lease) return null;
    run.lease = token;
    run.startedAt ??= new Date();
    run.deadlineAt ??= new Date(Date.now() + run.definition.limits.timeoutMs);
    return { ...run };
  }
  async renew() {
    return true;
  }
  async steps(id: string) {
    return this.records.get(id) ?? [];
  }
  async commitStep(c: StepCommit) {
    const run = this.runs.get(c.runId);
    if (!run || run.lease !== c.leaseToken || run.status !== 'running') return false;
    run.stepsDone += 1;
    run.tokensUsed += c.tokens;
    run.currentStep = c.nextStep;
    const list = this.records.get(c.runId) ?? [];
    list.push({ ...c.record, seq: run.stepsDone, input: structuredClone(c.record.input), output: structuredClone(c.record.output) });
    this.records.set(c.runId, list);
    if (c.finish) Object.assign(run, { status: c.finish.status, output: c.finish.output, error: c.finish.error, finishedAt: new Date(), lease: null });
    return true;
  }
  async fail(id: string, _token: string, error: string) {
    Object.assign(this.runs.get(id)!, { status: 'failed', error });
    return true;
  }
  async sleep() {
    return true;
  }
}

function stats(perStepMs: number[]) {
  const sorted = [...perStepMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { medianMs: +at(0.5).toFixed(4), p95Ms: +at(0.95).toFixed(4), meanMs: +(sorted.reduce((a, b) => a + b, 0) / sorted.length).toFixed(4) };
}

async function main() {
  const definition = parseDefinition({ steps: Array.from({ length: STEPS }, (_, i) => ({ id: `s${i}`, kind: 'template', text: 'ok' })), limits: { maxSteps: 1000 } });
  const runner = new StepRunner({ applications, events: noEvents, http: noHttp, conditions: new JsonataConditionEvaluator() });

  // In memory: the engine alone.
  const memory = new MemoryRuns();
  const memoryEngine = new WorkflowEngine({ workflows: memory as unknown as WorkflowRepository, steps: runner, clock: systemClock, workflowName: async () => 'bench' }, { leaseMs: 10_000 });
  const memoryPerStep: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const id = randomUUID();
    memory.runs.set(id, { id, workflowId: 'w', ownerId: 'o', applicationId: 'a', version: 1, definition, status: 'running', trigger: 'manual', input: {}, output: null, error: null, currentStep: 's0', stepsDone: 0, tokensUsed: 0, wakeAt: null, deadlineAt: null, createdAt: new Date(), startedAt: null, finishedAt: null, lease: null });
    const t = performance.now();
    await memoryEngine.execute(id);
    if (i >= 3) memoryPerStep.push((performance.now() - t) / STEPS);
    if (memory.runs.get(id)!.status !== 'completed') throw new Error(`run ended ${memory.runs.get(id)!.status}`);
  }

  // On the database.
  const database = await openDatabase(
    process.env.BENCH_DATABASE_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL, schema: `bench_${randomUUID().slice(0, 8)}` } : { pgliteThread: pgliteThreadSetting() },
  );
  const db = database.dataSource;
  const sqlPerStep: number[] = [];
  try {
    const [user] = await db.query(`INSERT INTO users (email, password_hash, display_name) VALUES ($1, 'x', 'Bench') RETURNING id`, [`bench-${randomUUID()}@example.com`]);
    const [app] = await db.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Bench', $2) RETURNING id`, [user.id, `bench-${randomUUID().slice(0, 8)}`]);
    const repo = new SqlWorkflowRepository(db);
    const workflow: Workflow = await repo.create({ ownerId: user.id, applicationId: app.id, name: 'bench', description: '', definition });
    const engine = new WorkflowEngine({ workflows: repo, steps: runner, clock: systemClock, workflowName: async () => 'bench' }, { leaseMs: 10_000 });
    for (let i = 0; i < RUNS + 3; i++) {
      const run = (await repo.createRun({ workflow, trigger: 'manual', input: {}, status: 'running' }))!;
      const t = performance.now();
      await engine.execute(run.id);
      if (i >= 3) sqlPerStep.push((performance.now() - t) / STEPS);
      const ended = await repo.findRun(run.id);
      if (ended?.status !== 'completed') throw new Error(`run ended ${ended?.status}: ${ended?.error}`);
    }
  } finally {
    await database.close();
  }
  const result = {
    runs: RUNS,
    stepsPerRun: STEPS,
    database: process.env.BENCH_DATABASE_URL ? 'postgresql' : `pglite (thread ${pgliteThreadSetting()})`,
    perNoOpStep: { inMemory: stats(memoryPerStep), database: stats(sqlPerStep) },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
