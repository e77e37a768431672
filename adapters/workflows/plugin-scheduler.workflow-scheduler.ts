import type { PluginScheduler } from '../../core/plugins/ports/plugin-scheduler.port';
import { ValidationError } from '../../core/shared/errors';
import type { WorkflowScheduler } from '../../core/workflows/ports/step-services.port';

const JOB = 'schedule';

/**
 * Workflow schedules on the plugins' cron machinery: BullMQ job schedulers on Redis (one job per tick
 * across instances; BullMQ checks the expression with cron-parser) or croner in this process. Each
 * workflow is one "installation" of that scheduler with one job.
 */
export class PluginBackedWorkflowScheduler implements WorkflowScheduler {
  constructor(private readonly scheduler: PluginScheduler) {}

  validate(cron: string, timezone: string | undefined): void {
    try {
      this.scheduler.validate({ installationId: 'check', name: JOB, pattern: cron, ...(timezone ? { timezone } : {}) });
    } catch (error) {
      const message = (error as Error).message.replace(/^cron schedule: /, '');
      throw ValidationError.field('trigger.schedule.cron', `trigger.schedule: ${message}`);
    }
  }

  async schedule(workflowId: string, cron: string, timezone: string | undefined): Promise<void> {
    try {
      await this.scheduler.schedule(workflowId, [{ installationId: workflowId, name: JOB, pattern: cron, ...(timezone ? { timezone } : {}) }]);
    } catch (error) {
      if (error instanceof ValidationError) throw ValidationError.field('trigger.schedule.cron', `trigger.schedule: ${error.message.replace(/^cron schedule: /, '')}`);
      throw error;
    }
  }

  unschedule(workflowId: string): Promise<void> {
    return this.scheduler.unschedule(workflowId);
  }

  start(run: (workflowId: string) => Promise<void>): Promise<void> {
    return this.scheduler.start((job) => run(job.installationId));
  }

  close(): Promise<void> {
    return this.scheduler.close();
  }
}
