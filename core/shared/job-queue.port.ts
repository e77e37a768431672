/** Which run of a job this is: `number` counts from 1 up to `of` (the attempts allowed). */
export interface JobAttempt {
  number: number;
  of: number;
}

export type JobHandler<P> = (payload: P, attempt: JobAttempt) => Promise<void>;

export interface JobOptions<P> {
  /** Runs allowed in all, the first included. */
  attempts: number;
  /** Delay before the first retry; each later retry waits twice as long as the one before. */
  backoffMs: number;
  /** Jobs of this name run at the same time, per process. */
  concurrency?: number;
  /** Called once, after the last attempt failed, with that attempt's error. */
  onFailed?(payload: P, error: unknown): Promise<void>;
}

/** How much work one job name has: waiting (or delayed for a retry), running, and failed for good. */
export interface JobQueueDepth {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  /** Jobs whose last attempt failed, counted by this process since it started (finished jobs are not kept). */
  failed: number;
}

/**
 * Background work by name, with retries and backoff: in-process by default, on Redis (BullMQ) when
 * REDIS_URL is set. Payloads are plain JSON (ids, never secrets or file contents).
 */
export interface JobQueue {
  /** Declares how jobs of `name` run; call before `start`. */
  register<P>(name: string, handler: JobHandler<P>, options: JobOptions<P>): void;
  /** Queues a job. With an `id`, a job of that name and id already waiting or running is not queued twice. */
  enqueue<P>(name: string, payload: P, options?: { id?: string }): Promise<void>;
  start(): Promise<void>;
  /** Stops taking jobs and waits for the running ones; queued ones wait for the next start. */
  stop(): Promise<void>;
  /** The depth of every registered job name (system health, metrics). */
  depth?(): Promise<JobQueueDepth[]>;
}
