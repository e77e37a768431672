import type { WorkflowDefinition } from '../domain/definition';
import type { RunStatus, RunTrigger, StepRecord, Workflow, WorkflowRun } from '../domain/workflow';

export interface NewWorkflow {
  /** Chosen by the caller when secrets are sealed to it before the insert. */
  id?: string;
  ownerId: string;
  applicationId: string;
  name: string;
  description: string;
  definition: WorkflowDefinition;
  secretsSealed?: Record<string, string>;
}

/** A step's outcome and the run's progress, written together (the run moves on only with its step recorded). */
export interface StepCommit {
  runId: string;
  leaseToken: string;
  record: Omit<StepRecord, 'seq'>;
  /** The step to run next, or null when the run ends with this step. */
  nextStep: string | null;
  tokens: number;
  /** Set when the run ends with this step. */
  finish?: { status: Extract<RunStatus, 'completed' | 'failed'>; output: unknown; error: string | null };
}

/**
 * Workflows, their runs and each run's step records. Runs are claimed with a lease (one executor at a
 * time, across instances); a run whose lease lapsed (its process died) is claimed again and continues
 * from the step after the last one recorded.
 */
export interface WorkflowRepository {
  create(workflow: NewWorkflow): Promise<Workflow>;
  findById(id: string): Promise<Workflow | null>;
  listByOwner(ownerId: string, applicationId: string | undefined, offset: number, limit: number): Promise<{ items: Workflow[]; total: number }>;
  /**
   * The workflows of the applications `userId` may see: their personal ones and their teams' (`teamId`: undefined
   * both, null personal only, an id that team's only), oldest first.
   */
  listVisible(userId: string, teamId: string | null | undefined, offset: number, limit: number): Promise<{ items: Workflow[]; total: number }>;
  /** Replaces fields and raises the version when the graph changes. */
  update(id: string, changes: Partial<Pick<Workflow, 'name' | 'description' | 'definition' | 'secretsSealed'>>): Promise<Workflow | null>;
  delete(id: string): Promise<boolean>;
  setPaused(id: string, paused: boolean): Promise<Workflow | null>;
  withSchedules(): Promise<Workflow[]>;
  /** Workflows of the owner (and, when given, that application) that a platform event of this type starts. */
  listByEvent(ownerId: string, applicationId: string | null, type: string): Promise<Workflow[]>;

  /** With a `dedupeKey` already used, nothing is stored and the answer is null. */
  createRun(run: { workflow: Workflow; trigger: RunTrigger; input: unknown; status: Extract<RunStatus, 'queued' | 'running'>; dedupeKey?: string }): Promise<WorkflowRun | null>;
  findRun(id: string): Promise<WorkflowRun | null>;
  listRuns(workflowId: string, offset: number, limit: number): Promise<{ items: WorkflowRun[]; total: number }>;
  steps(runId: string): Promise<StepRecord[]>;
  /** Queued runs of a workflow become running, oldest first; answers their ids in that order. */
  releaseQueued(workflowId: string): Promise<string[]>;
  cancel(runId: string): Promise<WorkflowRun | null>;
  /**
   * Takes the run for `leaseMs` when it is running, nobody holds it, it is not sleeping, and every
   * earlier run of the same workflow has started (runs start in trigger order). Null otherwise.
   */
  claim(runId: string, leaseToken: string, leaseMs: number, timeoutMs: number): Promise<WorkflowRun | null>;
  renew(runId: string, leaseToken: string, leaseMs: number): Promise<boolean>;
  /** Records a step and moves the run on; false when the lease was lost or the run was cancelled meanwhile. */
  commitStep(commit: StepCommit): Promise<boolean>;
  /** Lets the run sleep until `wakeAt` (a wait step) and gives up the lease. */
  sleep(runId: string, leaseToken: string, wakeAt: Date): Promise<boolean>;
  /** Ends the run without a step record (a limit reached before the next step). */
  fail(runId: string, leaseToken: string, error: string): Promise<boolean>;
  /** Running runs nobody holds that are due (not sleeping): what a restart or a lost job left behind. */
  dueRuns(limit: number): Promise<string[]>;
}
