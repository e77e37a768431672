import type { DomainEvent } from '../domain/domain-event';

/** The outbox table, from the dispatcher's side. */
export interface EventOutbox {
  /**
   * Takes up to `limit` undispatched events whose lease is free, oldest first, and leases them until
   * `leaseUntil`: two dispatchers (two instances) never take the same event at the same time.
   */
  claim(limit: number, now: Date, leaseUntil: Date): Promise<DomainEvent[]>;
  markDispatched(ids: string[], at: Date): Promise<void>;
  /**
   * Marks `done` dispatched at `at` and claims the next events, as `markDispatched` then `claim` would, in one
   * round trip (the dispatcher's loop sends one statement per batch instead of two). Optional: without it the
   * dispatcher calls the two.
   */
  markAndClaim?(done: string[], at: Date, limit: number, now: Date, leaseUntil: Date): Promise<DomainEvent[]>;
  /** Gives events back after a failed hand-over, to be taken again from `retryAt`. */
  release(ids: string[], retryAt: Date, error: string): Promise<void>;
}
