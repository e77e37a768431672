import type { Clock } from '../../shared/clock.port';
import type { DomainEvent } from '../domain/domain-event';
import type { EventOutbox } from '../ports/event-outbox.port';
import type { EventSubscriber } from '../ports/event-subscriber.port';

/** The job that drains the outbox; one name for every instance (BullMQ runs it once per id). */
export const DISPATCH_EVENTS_JOB = 'events.dispatch';

export interface DispatchEventsDeps {
  outbox: EventOutbox;
  /** The seam for consumers: webhooks, notifications, usage thresholds, plugin webhook handlers. */
  subscribers: () => EventSubscriber[];
  clock: Clock;
  /** How long a claimed event stays with this dispatcher before another may take it (a crash). */
  leaseMs?: number;
  /** Wait before an event whose hand-over failed is tried again. */
  retryDelayMs?: number;
  batchSize?: number;
  /**
   * How many times this process has woken the dispatcher, given only where every event is published in this
   * process (the embedded database: one process). A run then ends after a batch shorter than `batchSize` when
   * nothing woke the dispatcher meanwhile, without a last claim to find the outbox empty, and that batch is marked
   * dispatched by the next run's claim (the next wake, the periodic sweep, or `flush` on shutdown). Elsewhere
   * another process's event may arrive unannounced, so a run claims until it finds nothing.
   */
  wakes?: () => number;
  onSubscriberError?(subscriber: string, eventId: string, error: unknown): void;
}

/**
 * Hands committed events to every subscriber, oldest first, until the outbox is empty. An event is
 * marked dispatched only once all subscribers took it; otherwise it is released and taken again later,
 * so a crash or a failing subscriber never loses one (subscribers are idempotent on the event id).
 */
export class DispatchEventsUseCase {
  /** Events handed over by the last run and not yet marked dispatched (see `wakes`). */
  private unmarked: string[] = [];

  constructor(private readonly deps: DispatchEventsDeps) {}

  /** Marks what the last run handed over (on shutdown). */
  async flush(): Promise<void> {
    if (this.unmarked.length === 0) return;
    const ids = this.unmarked;
    this.unmarked = [];
    await this.deps.outbox.markDispatched(ids, this.deps.clock.now());
  }

  async execute(): Promise<{ dispatched: number; failed: number }> {
    const { outbox, clock } = this.deps;
    const leaseMs = this.deps.leaseMs ?? 60_000;
    let dispatched = 0;
    let failed = 0;
    // Events handed over but not yet marked: marked by the next claim (one statement for both where the outbox can).
    let done = this.unmarked;
    this.unmarked = [];
    const batchSize = this.deps.batchSize ?? 100;
    for (;;) {
      const woken = this.deps.wakes?.();
      const now = clock.now();
      const leaseUntil = new Date(now.getTime() + leaseMs);
      let events: DomainEvent[];
      if (done.length > 0 && outbox.markAndClaim) events = await outbox.markAndClaim(done, now, batchSize, now, leaseUntil);
      else {
        if (done.length > 0) await outbox.markDispatched(done, now);
        events = await outbox.claim(batchSize, now, leaseUntil);
      }
      done = [];
      if (events.length === 0) break;
      for (const event of events) {
        let error: unknown;
        for (const subscriber of this.deps.subscribers()) {
          try {
            await subscriber.handle(event);
          } catch (failure) {
            error ??= failure;
            this.deps.onSubscriberError?.(subscriber.name, event.id, failure);
          }
        }
        if (error === undefined) {
          done.push(event.id);
        } else {
          failed++;
          const retryAt = new Date(clock.now().getTime() + (this.deps.retryDelayMs ?? 30_000));
          await outbox.release([event.id], retryAt, error instanceof Error ? error.message : String(error));
        }
      }
      dispatched += done.length;
      // A batch that only failed would be claimed again at once; leave it to the next run.
      if (done.length === 0) break;
      // Every event is announced here, none was since the claim, and the claim took all there were.
      if (woken !== undefined && outbox.markAndClaim && events.length < batchSize && this.deps.wakes!() === woken) {
        this.unmarked = done;
        break;
      }
    }
    return { dispatched, failed };
  }
}
