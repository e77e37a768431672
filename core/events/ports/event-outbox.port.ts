import type { DomainEvent } from '../domain/domain-event';

/** The outbox table, from the dispatcher's side. */
export interface EventOutbox {
  /**
   * Takes up to `limit` undispatched events whose lease is free, oldest first, and leases them until
   * `leaseUntil`: two dispatchers (two instances) never take the same event at the same time.
   */
  claim(limit: number, now: Date, leaseUntil: Date): Promise<DomainEvent[]>;
  markDispatched(ids: string[], at: Date): Promise<void>;
  /** Gives events back after a failed hand-over, to be taken again from `retryAt`. */
  release(ids: string[], retryAt: Date, error: string): Promise<void>;
}
