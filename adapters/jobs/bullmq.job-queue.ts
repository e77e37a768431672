import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobHandler, JobOptions, JobQueue, JobQueueDepth } from '../../core/shared/job-queue.port';
import type { JobErrorReporter } from './in-process.job-queue';

interface Kind {
  handler: JobHandler<unknown>;
  options: JobOptions<unknown>;
}

export interface BullMqJobQueueOptions {
  redisUrl: string;
  /** Namespaces every key of these queues (tests give each run its own). */
  prefix?: string;
  reportError?: JobErrorReporter;
}

/**
 * Jobs on Redis through BullMQ, shared by every instance: a job survives a restart, and one whose
 * worker died is taken over once its lock expires. One BullMQ queue per job name.
 */
export class BullMqJobQueue implements JobQueue {
  private readonly kinds = new Map<string, Kind>();
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  private readonly prefix: string;
  private readonly reportError: JobErrorReporter;
  /** Jobs whose last attempt failed here since start (BullMQ keeps no failed jobs: `removeOnFail`). */
  private readonly failed = new Map<string, number>();
  /** Between stop() and the next start(): what is queued then goes to Redis on a connection of its own, closed at once. */
  private stopped = false;

  constructor(private readonly options: BullMqJobQueueOptions) {
    this.prefix = options.prefix ?? 'jobs';
    this.reportError = options.reportError ?? (() => undefined);
  }

  register<P>(name: string, handler: JobHandler<P>, options: JobOptions<P>): void {
    this.kinds.set(name, { handler: handler as JobHandler<unknown>, options: options as JobOptions<unknown> });
  }

  async enqueue<P>(name: string, payload: P, options: { id?: string } = {}): Promise<void> {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`No handler is registered for jobs named ${name}`);
    await this.withQueue(name, (queue) => queue.add(name, payload, {
      // BullMQ ignores an add whose id is already waiting, delayed or running: no double runs.
      jobId: options.id,
      attempts: Math.max(1, kind.options.attempts),
      backoff: { type: 'exponential', delay: kind.options.backoffMs },
      // Finished jobs are not kept: the outcome is recorded by the handler, and a kept id would block a later re-run.
      removeOnComplete: true,
      removeOnFail: true,
    }));
  }

  async start(): Promise<void> {
    this.stopped = false;
    for (const [name, kind] of this.kinds) {
      const worker = new Worker(name, (job: Job) => this.process(name, kind, job), {
        connection: this.connection(),
        prefix: this.prefix,
        concurrency: kind.options.concurrency ?? 1,
        autorun: false,
      });
      worker.on('error', (error) => this.reportError(error, { name, attempt: 0, final: false }));
      this.workers.push(worker);
      void worker.run().catch((error: unknown) => this.reportError(error, { name, attempt: 0, final: false }));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Workers first: close() lets running jobs finish; queued ones stay in Redis for the next start.
    await Promise.all(this.workers.splice(0).map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    for (const connection of this.connections.splice(0)) connection.disconnect();
  }

  private async process(name: string, kind: Kind, job: Job): Promise<void> {
    const attempt = { number: job.attemptsMade + 1, of: job.opts.attempts ?? 1 };
    try {
      await kind.handler(job.data, attempt);
    } catch (error) {
      const final = attempt.number >= attempt.of;
      this.reportError(error, { name, attempt: attempt.number, final });
      // Still holding the job's lock: the failure is recorded once, by the instance that saw it last.
      if (final) this.failed.set(name, (this.failed.get(name) ?? 0) + 1);
      if (final) await kind.options.onFailed?.(job.data, error).catch((failure: unknown) => this.reportError(failure, { name: `${name} (onFailed)`, attempt: attempt.number, final }));
      throw error;
    }
  }

  async depth(): Promise<JobQueueDepth[]> {
    return Promise.all(
      [...this.kinds.keys()].map(async (name) => {
        const counts = await this.withQueue(name, (queue) => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed'));
        return { name, waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: this.failed.get(name) ?? 0 };
      }),
    );
  }

  /**
   * The queue of `name`, kept open while the queue runs. After stop() (a chat turn that finishes as the process
   * stops still wakes the event dispatcher) the job is still stored for the next start, but on a queue and
   * connection closed right after: one kept would hold the process open, as nothing closes it any more.
   */
  private async withQueue<T>(name: string, use: (queue: Queue) => Promise<T>): Promise<T> {
    if (!this.stopped) return use(this.queue(name));
    const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    const queue = new Queue(name, { connection, prefix: this.prefix });
    queue.on('error', (error) => this.reportError(error, { name, attempt: 0, final: false }));
    try {
      return await use(queue);
    } finally {
      await queue.close().catch(() => undefined);
      connection.disconnect();
    }
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection(), prefix: this.prefix });
      queue.on('error', (error) => this.reportError(error, { name, attempt: 0, final: false }));
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** BullMQ's blocking commands need connections that retry forever (`maxRetriesPerRequest: null`). */
  private connection(): Redis {
    const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', () => undefined); // reported through the queue's and worker's own error events
    this.connections.push(connection);
    return connection;
  }
}
