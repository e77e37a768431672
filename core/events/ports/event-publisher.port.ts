import type { NewDomainEvent } from '../domain/domain-event';

/**
 * Publishes domain events (EVENTS.md). Events are written to the outbox in the caller's unit of work
 * (see `UnitOfWork`), so they are stored with the change that causes them or not at all, and handed to
 * the subscribers (webhooks, plugins, notifications) by a background job after commit.
 */
export interface EventPublisher {
  publish(...events: NewDomainEvent[]): Promise<void>;
}

/** A publisher that drops everything, for compositions without the events area. */
export const noEvents: EventPublisher = { publish: async () => undefined };
