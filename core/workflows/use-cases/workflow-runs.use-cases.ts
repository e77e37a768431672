import * as yup from 'yup';
import type { DomainEvent } from '../../events/domain/domain-event';
import type { EventSubscriber } from '../../events/ports/event-subscriber.port';
import type { PublicCaller } from '../../public-api/domain/public-caller';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { parsePageRequest, type Page } from '../../shared/pagination';
import { bool, num, validate } from '../../shared/validation';
import { missingInput } from '../domain/required-input';
import { toRunView, toStepView, toWorkflowView, type RunTrigger, type RunView, type Workflow, type WorkflowView } from '../domain/workflow';
import { RUN_WORKFLOW_JOB, type RunWorkflowJob } from './workflow-engine';
import { findOwnedRun, findOwnedWorkflow, type WorkflowDeps } from './workflow-deps';

/** The largest run input, as JSON. */
export const MAX_INPUT_CHARS = 100_000;

/** The run's input from the body: within its size, and holding what the steps every run reaches read (else 400 naming it). */
function readInput(body: unknown, workflow: Workflow): unknown {
  const raw = typeof body === 'object' && body !== null && Object.hasOwn(body, 'input') ? (body as Record<string, unknown>).input : {};
  if (JSON.stringify(raw ?? null).length > MAX_INPUT_CHARS) throw ValidationError.field('input', `input must be at most ${MAX_INPUT_CHARS} characters as JSON`);
  const input = raw === undefined ? {} : raw;
  const missing = missingInput(workflow.definition, input);
  if (missing) throw ValidationError.field(missing.path, missing.message);
  return input;
}

/**
 * Starts runs: a run of a paused workflow is queued (and starts when it resumes, in trigger order);
 * otherwise it is running at once and its job is queued.
 */
export class StartRuns {
  constructor(private readonly deps: WorkflowDeps) {}

  async start(workflow: Workflow, trigger: RunTrigger, input: unknown): Promise<RunView> {
    return (await this.startOnce(workflow, trigger, input))!;
  }

  /** With a `dedupeKey` (an event's id and the workflow), a second start of the same thing starts nothing (null). */
  async startOnce(workflow: Workflow, trigger: RunTrigger, input: unknown, dedupeKey?: string): Promise<RunView | null> {
    const run = await this.deps.workflows.createRun({ workflow, trigger, input, status: workflow.paused ? 'queued' : 'running', dedupeKey });
    if (!run) return null;
    if (run.status === 'running') await this.wake(run.id);
    return toRunView(run);
  }

  /** Queues the run's job; the sweep finds it anyway if this fails. */
  async wake(runId: string): Promise<void> {
    await this.deps.queue.enqueue<RunWorkflowJob>(RUN_WORKFLOW_JOB, { runId }).catch(() => undefined);
  }
}

/** `POST /api/workflows/:id/trigger { input }` → 202 `{ runId, status }`. */
export class TriggerWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps & { runs: StartRuns }) {}

  async execute(id: string, body: unknown, actor: Actor): Promise<{ runId: string; status: string }> {
    const workflow = await findOwnedWorkflow(this.deps, id, actor, 'write');
    const run = await this.deps.runs.start(workflow, 'manual', readInput(body, workflow));
    return { runId: run.id, status: run.status };
  }
}

const publicRunSchema = yup.object({
  input: yup.mixed(),
  wait: bool(),
  timeoutMs: num().integer('timeoutMs must be a whole number').min(100, 'timeoutMs must be at least 100').max(60_000, 'timeoutMs must be at most 60000'),
});

/**
 * `POST /api/v1/workflows/:id/run` with an API key: the key must cover the workflow's application. With
 * `wait: true` the answer waits for the run to end (up to `timeoutMs`, default 30 s) and carries its output;
 * otherwise, or past the time, it is 202 with the run id to poll.
 */
export class RunWorkflowByApiUseCase {
  constructor(private readonly deps: WorkflowDeps & { runs: StartRuns; sleep?: (ms: number) => Promise<void> }) {}

  async execute(id: string, body: unknown, caller: PublicCaller, signal?: AbortSignal): Promise<{ finished: boolean; run: RunView }> {
    const workflow = isUuid(id) ? await this.deps.workflows.findById(id) : null;
    if (!workflow || workflow.ownerId !== caller.key.ownerId || (caller.key.applicationId !== null && caller.key.applicationId !== workflow.applicationId)) {
      throw new NotFoundError('Workflow');
    }
    const parsed = await validate(publicRunSchema, body);
    const run = await this.deps.runs.start(workflow, 'api', readInput(body, workflow));
    if (!parsed.wait) return { finished: false, run };
    const deadline = Date.now() + (parsed.timeoutMs ?? 30_000);
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    let latest = run;
    while (Date.now() < deadline && !signal?.aborted) {
      await sleep(50);
      const found = await this.deps.workflows.findRun(run.id);
      if (!found) break;
      latest = toRunView(found);
      if (['completed', 'failed', 'cancelled'].includes(found.status)) return { finished: true, run: latest };
    }
    return { finished: false, run: latest };
  }
}

export class ListRunsUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(id: string, query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<RunView>> {
    const workflow = await findOwnedWorkflow(this.deps, id, actor, 'read');
    const { page, limit } = parsePageRequest(query);
    const found = await this.deps.workflows.listRuns(workflow.id, (page - 1) * limit, limit);
    return { data: found.items.map(toRunView), total: found.total, page, limit };
  }
}

/** `GET /api/workflows/runs/:runId`: the run with each step's status, input, output, duration, error and tokens. */
export class GetRunUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(runId: string, actor: Actor): Promise<RunView & { steps: ReturnType<typeof toStepView>[] }> {
    const run = await findOwnedRun(this.deps, runId, actor, 'read');
    const steps = await this.deps.workflows.steps(run.id);
    return { ...toRunView(run), steps: steps.map(toStepView) };
  }
}

export class CancelRunUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(runId: string, actor: Actor): Promise<RunView> {
    const run = await findOwnedRun(this.deps, runId, actor, 'write');
    if (!['queued', 'running'].includes(run.status)) throw new ConflictError(`The run has already ended (${run.status})`);
    const cancelled = await this.deps.workflows.cancel(run.id);
    return toRunView(cancelled ?? run);
  }
}

export class PauseWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(id: string, actor: Actor): Promise<WorkflowView> {
    const workflow = await findOwnedWorkflow(this.deps, id, actor, 'write');
    return toWorkflowView((await this.deps.workflows.setPaused(workflow.id, true)) ?? workflow);
  }
}

/** Resumes a workflow: the runs its triggers queued meanwhile start, oldest first. */
export class ResumeWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps & { runs: StartRuns }) {}

  async execute(id: string, actor: Actor): Promise<WorkflowView & { released: number }> {
    const workflow = await findOwnedWorkflow(this.deps, id, actor, 'write');
    const resumed = (await this.deps.workflows.setPaused(workflow.id, false)) ?? workflow;
    const released = await this.deps.workflows.releaseQueued(workflow.id);
    for (const runId of released) await this.deps.runs.wake(runId);
    return { ...toWorkflowView(resumed), released: released.length };
  }
}

/** A cron tick of a scheduled workflow (once per tick across instances, by the scheduler). */
export class RunScheduledWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps & { runs: StartRuns }) {}

  async execute(workflowId: string, firedAt: Date): Promise<void> {
    const workflow = await this.deps.workflows.findById(workflowId);
    // Deleted with its application (or its schedule removed elsewhere): the tick stops for good.
    if (!workflow || !workflow.definition.trigger.schedule) return this.deps.scheduler.unschedule(workflowId);
    await this.deps.runs.start(workflow, 'schedule', { scheduledAt: firedAt.toISOString() });
  }
}

/** How many workflow events in a row may start further workflows (a workflow that triggers itself stops there). */
export const MAX_EVENT_CHAIN = 5;

/**
 * Starts the workflows whose trigger is a platform event, with the event as input:
 * `{ event: { id, type, timestamp, data } }`. Idempotent on the event id (the dispatcher delivers at least
 * once, possibly on another instance): each (event, workflow) run is stored once.
 */
export class WorkflowEventTrigger implements EventSubscriber {
  readonly name = 'workflows';

  constructor(private readonly deps: WorkflowDeps & { runs: StartRuns }) {}

  async handle(event: DomainEvent): Promise<void> {
    if (event.type === 'workflow.event') {
      const depth = typeof event.data.depth === 'number' ? event.data.depth : 0;
      if (depth >= MAX_EVENT_CHAIN) return;
    }
    const workflows = await this.deps.workflows.listByEvent(event.ownerId, event.applicationId, event.type);
    for (const workflow of workflows) {
      if (event.type === 'workflow.event' && event.data.workflowId === workflow.id) continue;
      await this.deps.runs.startOnce(workflow, 'event', { event: { id: event.id, type: event.type, timestamp: event.timestamp, data: event.data } }, `${event.id}:${workflow.id}`);
    }
  }
}

