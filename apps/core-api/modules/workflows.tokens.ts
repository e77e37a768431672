import type { PluginBackedWorkflowScheduler } from '../../../adapters/workflows/plugin-scheduler.workflow-scheduler';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import type { ConditionEvaluator, WorkflowHttp } from '../../../core/workflows/ports/step-services.port';
import type { WorkflowRepository } from '../../../core/workflows/ports/workflow-repository.port';
import { token } from '../../shared/tokens';

export const WORKFLOW_TOKENS = {
  Repository: token<WorkflowRepository>('WorkflowRepository'),
  JobQueue: token<JobQueue>('WorkflowsJobQueue'),
  Conditions: token<ConditionEvaluator>('WorkflowConditions'),
  Http: token<WorkflowHttp>('WorkflowHttp'),
  Scheduler: token<PluginBackedWorkflowScheduler>('WorkflowScheduler'),
} as const;
