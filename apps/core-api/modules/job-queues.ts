import type { Container } from 'inversify';
import { BullMqJobQueue } from '../../../adapters/jobs/bullmq.job-queue';
import { InProcessJobQueue, type JobErrorReporter } from '../../../adapters/jobs/in-process.job-queue';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import type { Getter } from '../../shared/app-module';
import { TOKENS, resolve, type Key } from '../../shared/tokens';
import { EVALUATION_TOKENS } from './evaluations.tokens';
import { EVENTS_INTERNAL_TOKENS } from './events.tokens';
import { EXPERIMENT_TOKENS } from './experiments.tokens';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import { WEBHOOK_TOKENS } from './webhooks.tokens';

/** A job queue of an area's own: BullMQ when REDIS_URL is set (keys under `prefix`), else in this process. */
export function ownJobQueue(get: Getter, prefix: string): JobQueue {
  const config = get(TOKENS.Config);
  const logger = get(TOKENS.Logger);
  const reportError: JobErrorReporter = (err, job) =>
    logger.warn({ err: err instanceof Error ? err.message : String(err), job: job.name, attempt: job.attempt, final: job.final }, 'background job failed');
  return config.redisUrl ? new BullMqJobQueue({ redisUrl: config.redisUrl, prefix, reportError }) : new InProcessJobQueue(reportError);
}

/** The job queues of the core API's areas, those bound in this container. */
export function boundJobQueues(c: Container): JobQueue[] {
  const keys: Array<Key<JobQueue>> = [KNOWLEDGE_TOKENS.JobQueue, EVENTS_INTERNAL_TOKENS.JobQueue, WEBHOOK_TOKENS.JobQueue, EXPERIMENT_TOKENS.JobQueue, EVALUATION_TOKENS.JobQueue];
  return keys.filter((k) => c.isBound(k)).map((k) => resolve(c, k));
}
