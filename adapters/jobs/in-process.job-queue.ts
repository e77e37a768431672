import type { JobHandler, JobOptions, JobQueue, JobQueueDepth } from '../../core/shared/job-queue.port';

interface Entry {
  payload: unknown;
  id?: string;
  attempt: number;
}

interface Kind {
  name: string;
  handler: JobHandler<unknown>;
  options: JobOptions<unknown>;
  waiting: Entry[];
  running: number;
  /** Ids queued, running or waiting to retry: the same id is not queued twice. */
  ids: Set<string>;
  /** Jobs whose last attempt failed, since this process started. */
  failed: number;
}

export type JobErrorReporter = (error: unknown, job: { name: string; attempt: number; final: boolean }) => void;

/**
 * Jobs in this process's memory: the default when there is no Redis. Nothing survives a restart; the
 * areas that queue work pick up what was left at start-up.
 */
export class InProcessJobQueue implements JobQueue {
  private readonly kinds = new Map<string, Kind>();
  private readonly active = new Set<Promise<void>>();
  private readonly timers = new Map<NodeJS.Timeout, { kind: Kind; entry: Entry }>();
  private running = false;

  constructor(private readonly reportError: JobErrorReporter = () => undefined) {}

  register<P>(name: string, handler: JobHandler<P>, options: JobOptions<P>): void {
    const known = this.kinds.get(name);
    // Registering again (a restart of the same process's app) keeps what is already queued.
    if (known) Object.assign(known, { handler, options });
    else this.kinds.set(name, { name, handler: handler as JobHandler<unknown>, options: options as JobOptions<unknown>, waiting: [], running: 0, ids: new Set(), failed: 0 });
  }

  async enqueue<P>(name: string, payload: P, options: { id?: string } = {}): Promise<void> {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`No handler is registered for jobs named ${name}`);
    if (options.id !== undefined) {
      if (kind.ids.has(options.id)) return;
      kind.ids.add(options.id);
    }
    // A copy through JSON, as a queue on Redis would store it: no shared references, no class instances.
    kind.waiting.push({ payload: JSON.parse(JSON.stringify(payload)), id: options.id, attempt: 1 });
    this.pump(kind);
  }

  async start(): Promise<void> {
    this.running = true;
    for (const kind of this.kinds.values()) this.pump(kind);
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const [timer, { kind, entry }] of this.timers) {
      clearTimeout(timer);
      kind.waiting.unshift(entry);
    }
    this.timers.clear();
    await Promise.allSettled([...this.active]);
  }

  async depth(): Promise<JobQueueDepth[]> {
    const delayed = new Map<Kind, number>();
    for (const { kind } of this.timers.values()) delayed.set(kind, (delayed.get(kind) ?? 0) + 1);
    return [...this.kinds.values()].map((k) => ({ name: k.name, waiting: k.waiting.length, active: k.running, delayed: delayed.get(k) ?? 0, failed: k.failed }));
  }

  private pump(kind: Kind): void {
    while (this.running && kind.running < (kind.options.concurrency ?? 1) && kind.waiting.length > 0) {
      const entry = kind.waiting.shift()!;
      kind.running++;
      const run = this.run(kind, entry).finally(() => {
        kind.running--;
        this.active.delete(run);
        this.pump(kind);
      });
      this.active.add(run);
    }
  }

  private async run(kind: Kind, entry: Entry): Promise<void> {
    const of = Math.max(1, kind.options.attempts);
    try {
      await kind.handler(entry.payload, { number: entry.attempt, of });
    } catch (error) {
      const final = entry.attempt >= of;
      this.reportError(error, { name: kind.name, attempt: entry.attempt, final });
      if (!final) return this.retryLater(kind, entry);
      kind.failed++;
      await kind.options.onFailed?.(entry.payload, error).catch((failure: unknown) => this.reportError(failure, { name: `${kind.name} (onFailed)`, attempt: entry.attempt, final }));
    }
    if (entry.id !== undefined) kind.ids.delete(entry.id);
  }

  private retryLater(kind: Kind, entry: Entry): void {
    const delay = kind.options.backoffMs * 2 ** (entry.attempt - 1);
    const next = { ...entry, attempt: entry.attempt + 1 };
    if (!this.running) {
      // A job that failed while the queue stops: its retry waits for the next start, as those stop() took off their
      // timers do. A timer set now would outlive the stop and hold the process open for the whole backoff.
      kind.waiting.unshift(next);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      kind.waiting.push(next);
      this.pump(kind);
    }, delay);
    this.timers.set(timer, { kind, entry: next });
  }
}
