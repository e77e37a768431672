import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { AccessAction } from '../../access/roles';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { JobQueue } from '../../shared/job-queue.port';
import type { SecretBox } from '../../shared/secret-box.port';
import type { WorkflowDefinition } from '../domain/definition';
import type { Workflow, WorkflowRun } from '../domain/workflow';
import type { ConditionEvaluator, WorkflowScheduler } from '../ports/step-services.port';
import type { WorkflowRepository } from '../ports/workflow-repository.port';

export interface WorkflowDeps {
  workflows: WorkflowRepository;
  applications: ApplicationRepository;
  conditions: ConditionEvaluator;
  scheduler: WorkflowScheduler;
  queue: JobQueue;
  secretBox: SecretBox;
}

/**
 * Whether the actor may see the application (core/access decides: its owner, and its team's members). A
 * member who sees it but whose role does not allow `action` gets the policy's 403.
 */
async function mayUse(applications: ApplicationRepository, applicationId: string, actor: Actor, action: AccessAction): Promise<boolean> {
  try {
    await findOwnedApplication(applications, applicationId, actor, action);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/**
 * A workflow of an application the caller may see, or a 404 that does not tell "not yours" from "does not exist".
 * Reading needs `read` (Viewer); changing, running, pausing or deleting a workflow needs `write` (Member).
 */
export async function findOwnedWorkflow(deps: Pick<WorkflowDeps, 'workflows' | 'applications'>, id: unknown, actor: Actor, action: AccessAction): Promise<Workflow> {
  if (!isUuid(id)) throw new NotFoundError('Workflow');
  const workflow = await deps.workflows.findById(id);
  if (!workflow || !(await mayUse(deps.applications, workflow.applicationId, actor, action))) throw new NotFoundError('Workflow');
  return workflow;
}

export async function findOwnedRun(deps: Pick<WorkflowDeps, 'workflows' | 'applications'>, id: unknown, actor: Actor, action: AccessAction): Promise<WorkflowRun> {
  if (!isUuid(id)) throw new NotFoundError('Workflow run');
  const run = await deps.workflows.findRun(id);
  if (!run || !(await mayUse(deps.applications, run.applicationId, actor, action))) throw new NotFoundError('Workflow run');
  return run;
}

/** Checks what the graph check cannot: condition expressions and the schedule's cron and time zone. */
export function checkServices(deps: Pick<WorkflowDeps, 'conditions' | 'scheduler'>, definition: WorkflowDefinition): void {
  const problems: Array<{ path: string; message: string }> = [];
  for (const step of definition.steps) {
    if (step.kind !== 'condition') continue;
    const problem = deps.conditions.problemWith(step.expression);
    if (problem) problems.push({ path: `steps.${step.id}.expression`, message: `step "${step.id}": ${problem}` });
  }
  if (problems.length) throw new ValidationError(problems[0]!.message, problems);
  const schedule = definition.trigger.schedule;
  if (schedule) deps.scheduler.validate(schedule.cron, schedule.timezone);
}

/** Puts the workflow's schedule in place (or removes it) after a save. */
export async function syncSchedule(scheduler: WorkflowScheduler, workflow: Workflow): Promise<void> {
  const schedule = workflow.definition.trigger.schedule;
  if (schedule) await scheduler.schedule(workflow.id, schedule.cron, schedule.timezone);
  else await scheduler.unschedule(workflow.id);
}
