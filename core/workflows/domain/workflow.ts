import type { StepKind, WorkflowDefinition } from './definition';

export interface Workflow {
  id: string;
  ownerId: string;
  applicationId: string;
  name: string;
  description: string;
  /** Raised by every saved change of the graph; a run keeps the version it started with. */
  version: number;
  definition: WorkflowDefinition;
  /** While paused, triggers queue their runs; resuming starts them in the order they came. */
  paused: boolean;
  /** Each secret sealed (SecretBox, bound to the workflow and name); only the names are ever shown. */
  secretsSealed: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type RunTrigger = 'manual' | 'api' | 'schedule' | 'event';

export interface WorkflowRun {
  id: string;
  workflowId: string;
  ownerId: string;
  applicationId: string;
  version: number;
  definition: WorkflowDefinition;
  status: RunStatus;
  trigger: RunTrigger;
  input: unknown;
  output: unknown;
  error: string | null;
  /** The step to run next (null before the first and after the last). */
  currentStep: string | null;
  stepsDone: number;
  tokensUsed: number;
  /** A `wait` step in progress sleeps until then. */
  wakeAt: Date | null;
  /** When the run must have finished (its time limit from its first step). */
  deadlineAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface StepRecord {
  seq: number;
  stepId: string;
  kind: StepKind;
  status: 'completed' | 'failed';
  input: unknown;
  output: unknown;
  error: string | null;
  attempts: number;
  tokens: number;
  durationMs: number;
  startedAt: Date;
  finishedAt: Date;
}

export interface WorkflowView {
  id: string;
  applicationId: string;
  name: string;
  description: string;
  version: number;
  paused: boolean;
  steps: WorkflowDefinition['steps'];
  allowedHosts: string[];
  limits: WorkflowDefinition['limits'];
  trigger: WorkflowDefinition['trigger'];
  /** The names of its secrets (values are never shown). */
  secrets: string[];
  createdAt: string;
  updatedAt: string;
}

export const toWorkflowView = (w: Workflow): WorkflowView => ({
  id: w.id,
  applicationId: w.applicationId,
  name: w.name,
  description: w.description,
  version: w.version,
  paused: w.paused,
  steps: w.definition.steps,
  allowedHosts: w.definition.allowedHosts,
  limits: w.definition.limits,
  trigger: w.definition.trigger,
  secrets: Object.keys(w.secretsSealed).sort(),
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

export interface RunView {
  id: string;
  workflowId: string;
  version: number;
  status: RunStatus;
  trigger: RunTrigger;
  input: unknown;
  output: unknown;
  error: string | null;
  stepsDone: number;
  tokensUsed: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export const toRunView = (r: WorkflowRun): RunView => ({
  id: r.id,
  workflowId: r.workflowId,
  version: r.version,
  status: r.status,
  trigger: r.trigger,
  input: r.input,
  output: r.output,
  error: r.error,
  stepsDone: r.stepsDone,
  tokensUsed: r.tokensUsed,
  createdAt: r.createdAt.toISOString(),
  startedAt: r.startedAt?.toISOString() ?? null,
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

export const toStepView = (s: StepRecord) => ({
  seq: s.seq,
  stepId: s.stepId,
  kind: s.kind,
  status: s.status,
  input: s.input,
  output: s.output,
  error: s.error,
  attempts: s.attempts,
  tokens: s.tokens,
  durationMs: s.durationMs,
  startedAt: s.startedAt.toISOString(),
  finishedAt: s.finishedAt.toISOString(),
});
