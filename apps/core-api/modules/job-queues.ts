import { BullMqJobQueue } from '../../../adapters/jobs/bullmq.job-queue';
import { InProcessJobQueue, type JobErrorReporter } from '../../../adapters/jobs/in-process.job-queue';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import type { Getter } from '../../shared/app-module';
import { TOKENS } from '../../shared/tokens';

/** A job queue of an area's own: BullMQ when REDIS_URL is set (keys under `prefix`), else in this process. */
export function ownJobQueue(get: Getter, prefix: string): JobQueue {
  const config = get(TOKENS.Config);
  const logger = get(TOKENS.Logger);
  const reportError: JobErrorReporter = (err, job) =>
    logger.warn({ err: err instanceof Error ? err.message : String(err), job: job.name, attempt: job.attempt, final: job.final }, 'background job failed');
  return config.redisUrl ? new BullMqJobQueue({ redisUrl: config.redisUrl, prefix, reportError }) : new InProcessJobQueue(reportError);
}
