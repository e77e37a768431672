import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { PluginScheduler, ScheduledJob } from '../../core/plugins/ports/plugin-scheduler.port';
import { ValidationError } from '../../core/shared/errors';
import { checkCronJob } from './cron-rules';

const QUEUE = 'plugin-cron';
type Runner = (job: { installationId: string; name: string }) => Promise<void>;

/**
 * Cron across instances: one BullMQ job scheduler per (installation, job) on Redis, so each tick becomes
 * one job that exactly one instance's worker runs.
 */
export class BullMqPluginScheduler implements PluginScheduler {
  private readonly connection: Redis;
  private readonly queue: Queue;
  private worker: Worker | undefined;
  private workerConnection: Redis | undefined;

  constructor(private readonly options: { redisUrl: string; prefix?: string; concurrency?: number }) {
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.queue = new Queue(QUEUE, { connection: this.connection, prefix: options.prefix ?? 'jobs' });
  }

  validate(job: ScheduledJob): void {
    checkCronJob(job);
  }

  async schedule(installationId: string, jobs: ScheduledJob[]): Promise<void> {
    await this.unschedule(installationId);
    for (const job of jobs) {
      try {
        await this.queue.upsertJobScheduler(
          `${installationId}:${job.name}`,
          job.everyMs !== undefined ? { every: job.everyMs } : { pattern: job.pattern!, ...(job.timezone ? { tz: job.timezone } : {}) },
          { name: QUEUE, data: { installationId, name: job.name }, opts: { removeOnComplete: true, removeOnFail: true } },
        );
      } catch (error) {
        // BullMQ checks expressions with cron-parser, which is stricter than croner in places.
        await this.unschedule(installationId);
        throw ValidationError.field(`cron.${job.name}`, `cron ${job.name}: ${(error as Error).message}`);
      }
    }
  }

  async unschedule(installationId: string): Promise<void> {
    const schedulers = await this.queue.getJobSchedulers(0, -1);
    for (const s of schedulers) {
      const id = s.key ?? s.id;
      if (typeof id === 'string' && id.startsWith(`${installationId}:`)) await this.queue.removeJobScheduler(id);
    }
  }

  async start(run: Runner): Promise<void> {
    this.workerConnection = this.connection.duplicate();
    this.worker = new Worker(QUEUE, async (job) => run(job.data as { installationId: string; name: string }), {
      connection: this.workerConnection,
      prefix: this.options.prefix ?? 'jobs',
      concurrency: this.options.concurrency ?? 4,
    });
    this.worker.on('error', () => undefined);
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    this.workerConnection?.disconnect();
    this.connection.disconnect();
  }
}
