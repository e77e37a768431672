import { randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/clock.port';
import { successors, type Step } from '../domain/definition';
import type { RunScope } from '../domain/references';
import type { WorkflowRun } from '../domain/workflow';
import type { WorkflowRepository } from '../ports/workflow-repository.port';
import { PermanentStepError, type StepResult, type StepRunner } from './step-runner';

export const RUN_WORKFLOW_JOB = 'workflows.run';
export interface RunWorkflowJob {
  runId: string;
}

export interface EngineOptions {
  /** How long a claim on a run lasts without renewal; a run whose process died continues after it lapses. */
  leaseMs: number;
  /** Whether a step's retry waits (tests and the benchmark set a fake sleeper). */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Executes runs step by step. Each step's record and the run's progress are written together, so a run
 * resumes after the last recorded step wherever it is claimed next (another instance, or this one after
 * a restart). A step cut short by a crash runs again: steps are at least once, and the `webhook` step's
 * event carries a de-duplication key.
 */
export class WorkflowEngine {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly deps: { workflows: WorkflowRepository; steps: StepRunner; clock: Clock; workflowName: (workflowId: string) => Promise<string> },
    private readonly options: EngineOptions,
  ) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Runs what is left of a run, if it can be claimed; returns once it ends, sleeps, or is lost. */
  async execute(runId: string): Promise<void> {
    const { workflows } = this.deps;
    const token = randomUUID();
    const firstLook = await workflows.findRun(runId);
    if (!firstLook || firstLook.status !== 'running') return;
    const run = await workflows.claim(runId, token, this.options.leaseMs, firstLook.definition.limits.timeoutMs);
    if (!run) return;
    let lost = false;
    const renewal = setInterval(() => {
      void workflows
        .renew(runId, token, this.options.leaseMs)
        .then((held) => {
          if (!held) lost = true;
        })
        .catch(() => undefined);
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
    renewal.unref();
    try {
      await this.continueRun(run, token, () => lost);
    } finally {
      clearInterval(renewal);
    }
  }

  private async continueRun(run: WorkflowRun, token: string, isLost: () => boolean): Promise<void> {
    const { workflows, clock } = this.deps;
    const { definition } = run;
    const byId = new Map(definition.steps.map((s) => [s.id, s]));
    const records = await workflows.steps(run.id);
    const scope: RunScope = { input: run.input, outputs: {} };
    const visits = new Map<string, number>();
    for (const r of records) {
      if (r.status === 'completed') scope.outputs[r.stepId] = r.output;
      visits.set(r.stepId, (visits.get(r.stepId) ?? 0) + 1);
    }
    const workflowName = await this.deps.workflowName(run.workflowId);
    let current = run.currentStep;
    let stepsDone = run.stepsDone;
    let tokensUsed = run.tokensUsed;
    let wakeAt = run.wakeAt;
    const { limits } = definition;

    while (current !== null && !isLost()) {
      const step = byId.get(current);
      if (!step) return void (await workflows.fail(run.id, token, `step "${current}" is not in this version of the workflow`));
      const now = clock.now();
      if (stepsDone >= limits.maxSteps) return void (await workflows.fail(run.id, token, `The run reached its limit of ${limits.maxSteps} steps before step "${step.id}"`));
      if (run.deadlineAt && now.getTime() >= run.deadlineAt.getTime()) {
        return void (await workflows.fail(run.id, token, `The run reached its time limit of ${limits.timeoutMs} ms before step "${step.id}"`));
      }
      if (step.kind === 'llm' && tokensUsed >= limits.maxTokens) {
        return void (await workflows.fail(run.id, token, `The run used ${tokensUsed} tokens, reaching its limit of ${limits.maxTokens}, before step "${step.id}"`));
      }
      const visit = (visits.get(step.id) ?? 0) + 1;
      if (step.kind === 'condition' && step.maxIterations !== undefined && visit > step.maxIterations) {
        return void (await workflows.fail(run.id, token, `The loop at step "${step.id}" reached its limit of ${step.maxIterations} iterations`));
      }
      if (step.kind === 'wait' && (!wakeAt || wakeAt.getTime() > now.getTime())) {
        // Sleeps in the database, not in this process: any instance continues the run once it is due.
        if (!wakeAt) await workflows.sleep(run.id, token, new Date(now.getTime() + step.ms));
        else await workflows.sleep(run.id, token, wakeAt);
        return;
      }
      wakeAt = null;

      const started = clock.now();
      const t0 = performance.now();
      const remaining = run.deadlineAt ? Math.max(1, run.deadlineAt.getTime() - started.getTime()) : limits.timeoutMs;
      const { result, error, attempts } = await this.attempt(step, run, scope, { workflowName, visit, remaining });
      const durationMs = Math.round(performance.now() - t0);
      const finishedAt = clock.now();
      if (error !== undefined) {
        await workflows.commitStep({
          runId: run.id,
          leaseToken: token,
          record: { stepId: step.id, kind: step.kind, status: 'failed', input: null, output: null, error, attempts, tokens: 0, durationMs, startedAt: started, finishedAt },
          nextStep: null,
          tokens: 0,
          finish: { status: 'failed', output: null, error: `Step "${step.id}" failed: ${error}` },
        });
        return;
      }
      const next = result!.next !== undefined ? result!.next : (successors(step, definition.steps)[0] ?? null);
      tokensUsed += result!.tokens;
      stepsDone += 1;
      scope.outputs[step.id] = result!.output;
      visits.set(step.id, visit);
      const overTokens = tokensUsed > limits.maxTokens;
      const ends = next === null || overTokens;
      const committed = await workflows.commitStep({
        runId: run.id,
        leaseToken: token,
        record: { stepId: step.id, kind: step.kind, status: 'completed', input: result!.input, output: result!.output, error: null, attempts, tokens: result!.tokens, durationMs, startedAt: started, finishedAt },
        nextStep: ends ? null : next,
        tokens: result!.tokens,
        ...(ends
          ? {
              finish: overTokens
                ? { status: 'failed' as const, output: null, error: `The run used ${tokensUsed} tokens, past its limit of ${limits.maxTokens} (at step "${step.id}")` }
                : { status: 'completed' as const, output: result!.output, error: null },
            }
          : {}),
      });
      if (!committed || ends) return;
      current = next;
    }
  }

  /** Runs a step with its retries (backoff doubling from `retry.backoffMs`); a permanent failure is not retried. */
  private async attempt(step: Step, run: WorkflowRun, scope: RunScope, ctx: { workflowName: string; visit: number; remaining: number }): Promise<{ result?: StepResult; error?: string; attempts: number }> {
    const allowed = step.retry?.attempts ?? 1;
    let last = '';
    for (let attempt = 1; attempt <= allowed; attempt++) {
      const signal = AbortSignal.timeout(ctx.remaining);
      try {
        return { result: await this.deps.steps.run(step, run, scope, { workflowName: ctx.workflowName, visit: ctx.visit, signal }), attempts: attempt };
      } catch (error) {
        last = messageOf(error);
        if (error instanceof PermanentStepError || signal.aborted || attempt === allowed) return { error: last, attempts: attempt };
        await this.sleep((step.retry?.backoffMs ?? 1000) * 2 ** (attempt - 1));
      }
    }
    return { error: last, attempts: allowed };
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 1000);
