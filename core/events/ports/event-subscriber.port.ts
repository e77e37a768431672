import type { DomainEvent } from '../domain/domain-event';

/**
 * A consumer of committed domain events: webhooks, notifications, usage thresholds, plugin webhook
 * handlers. Delivery is at least once: `handle` may see an event again after a crash or a failure of
 * another subscriber, so it must be idempotent on `event.id`. A throw makes the dispatcher retry the
 * event later (the other subscribers see it again too).
 */
export interface EventSubscriber {
  readonly name: string;
  handle(event: DomainEvent): Promise<void>;
}
