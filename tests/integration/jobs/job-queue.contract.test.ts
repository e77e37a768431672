import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BullMqJobQueue } from '../../../adapters/jobs/bullmq.job-queue';
import { InProcessJobQueue } from '../../../adapters/jobs/in-process.job-queue';
import type { JobAttempt, JobQueue } from '../../../core/shared/job-queue.port';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the BullMQ variant of the job queue tests is skipped\n');

interface Variant {
  /** A queue; queues made by the same variant share their jobs (the same Redis prefix). */
  make(): JobQueue;
  cleanup(): Promise<void>;
}

const inProcess = (): Variant => {
  // In-process jobs live in one object: "another instance" is the same one started again.
  let queue: InProcessJobQueue | undefined;
  return { make: () => (queue ??= new InProcessJobQueue()), cleanup: async () => undefined };
};

const bullMq = (): Variant => {
  const prefix = `test-jobs-${randomBytes(4).toString('hex')}`;
  return {
    make: () => new BullMqJobQueue({ redisUrl: REDIS_URL!, prefix }),
    async cleanup() {
      const redis = new Redis(REDIS_URL!);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    },
  };
};

const variants: Array<[string, () => Variant]> = [['in-process', inProcess], ...(REDIS_URL ? [['bullmq on redis', bullMq] as [string, () => Variant]] : [])];

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(variants)('JobQueue contract (%s)', (_name, makeVariant) => {
  let variant: Variant;
  const started: JobQueue[] = [];
  const open = async (setup: (q: JobQueue) => void): Promise<JobQueue> => {
    const queue = variant.make();
    setup(queue);
    await queue.start();
    started.push(queue);
    return queue;
  };
  beforeEach(() => {
    variant = makeVariant();
  });
  afterEach(async () => {
    for (const q of started.splice(0)) await q.stop();
    await variant.cleanup();
  });

  it('runs a queued job with its payload', async () => {
    const seen: unknown[] = [];
    const queue = await open((q) => q.register<{ n: number }>('demo', async (p) => void seen.push(p), { attempts: 1, backoffMs: 10 }));
    await queue.enqueue('demo', { n: 1 });
    await eventually(() => seen.length === 1);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it('retries a failing job with backoff, counting attempts, until it succeeds', async () => {
    const attempts: JobAttempt[] = [];
    const queue = await open((q) =>
      q.register('flaky', async (_p, attempt) => {
        attempts.push(attempt);
        if (attempt.number < 3) throw new Error('not yet');
      }, { attempts: 4, backoffMs: 20 }),
    );
    await queue.enqueue('flaky', {});
    await eventually(() => attempts.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(attempts).toEqual([{ number: 1, of: 4 }, { number: 2, of: 4 }, { number: 3, of: 4 }]);
  });

  it('gives up after the last attempt and reports the failure once', async () => {
    let runs = 0;
    const failures: Array<[unknown, string]> = [];
    const queue = await open((q) =>
      q.register<{ id: string }>('doomed', async () => {
        runs++;
        throw new Error('always');
      }, { attempts: 3, backoffMs: 10, onFailed: async (payload, error) => void failures.push([payload, (error as Error).message]) }),
    );
    await queue.enqueue('doomed', { id: 'd1' });
    await eventually(() => failures.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toBe(3);
    expect(failures).toEqual([[{ id: 'd1' }, 'always']]);
  });

  it('does not queue the same id twice while it waits or runs, and takes it again once done', async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const queue = await open((q) =>
      q.register('unique', async () => {
        runs++;
        await gate;
      }, { attempts: 1, backoffMs: 10 }),
    );
    await queue.enqueue('unique', {}, { id: 'doc-1' });
    await eventually(() => runs === 1);
    await queue.enqueue('unique', {}, { id: 'doc-1' });
    await queue.enqueue('unique', {}, { id: 'doc-1' });
    release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toBe(1);
    await queue.enqueue('unique', {}, { id: 'doc-1' });
    await eventually(() => runs === 2);
  });

  it('keeps jobs queued while stopped and runs them at the next start', async () => {
    const seen: number[] = [];
    const register = (q: JobQueue) => q.register<{ n: number }>('later', async (p) => void seen.push(p.n), { attempts: 1, backoffMs: 10 });
    const first = variant.make();
    register(first);
    await first.start();
    await first.stop();
    await first.enqueue('later', { n: 7 });
    started.push(first);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);

    await open(register);

    await eventually(() => seen.length === 1);
    expect(seen).toEqual([7]);
  });

  it('waits for a running job when stopping', async () => {
    let finished = false;
    let running = false;
    const queue = await open((q) =>
      q.register('slow', async () => {
        running = true;
        await new Promise((resolve) => setTimeout(resolve, 150));
        finished = true;
      }, { attempts: 1, backoffMs: 10 }),
    );
    await queue.enqueue('slow', {});
    await eventually(() => running);
    await queue.stop();
    started.splice(started.indexOf(queue), 1);
    expect(finished).toBe(true);
  });

  it('reports its depth: jobs waiting and running, and those that failed for good', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let failures = 0;
    const queue = await open((q) => {
      q.register('busy', async () => gate, { attempts: 1, backoffMs: 10 });
      q.register('broken', async () => Promise.reject(new Error('no')), { attempts: 1, backoffMs: 10, onFailed: async () => void failures++ });
    });
    for (let i = 0; i < 3; i++) await queue.enqueue('busy', { i });
    await queue.enqueue('broken', {});
    await eventually(() => failures === 1);
    // A worker takes its job a moment after it is queued (BullMQ polls Redis).
    let depth = await queue.depth!();
    const until = Date.now() + 5000;
    while (depth.find((d) => d.name === 'busy')!.active !== 1 && Date.now() < until) depth = await queue.depth!();
    expect(depth).toEqual([
      { name: 'busy', waiting: 2, active: 1, delayed: 0, failed: 0 },
      { name: 'broken', waiting: 0, active: 0, delayed: 0, failed: 1 },
    ]);
    release();
  });
});

describe('InProcessJobQueue stopping', () => {
  it('keeps the retry of a job that fails while the queue stops for the next start, with no timer left behind', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const attempts: number[] = [];
    const queue = new InProcessJobQueue();
    // A minute of backoff: a timer set during the stop would hold the process (a Jest worker: "failed to exit gracefully").
    queue.register('fragile', async (_p, attempt) => {
      attempts.push(attempt.number);
      if (attempt.number === 1) {
        await gate;
        throw new Error('cut short');
      }
    }, { attempts: 3, backoffMs: 60_000 });
    await queue.start();
    await queue.enqueue('fragile', {});
    await eventually(() => attempts.length === 1);

    const stopping = queue.stop();
    release();
    await stopping;
    // Waiting, not delayed: the queue's only timers are its delayed retries.
    expect(await queue.depth()).toEqual([{ name: 'fragile', waiting: 1, active: 0, delayed: 0, failed: 0 }]);

    await queue.start();
    await eventually(() => attempts.length === 2);
    expect(attempts).toEqual([1, 2]);
    await queue.stop();
  });
});
