import type { Container } from 'inversify';
import type { EventPublisher } from '../../../core/events/ports/event-publisher.port';
import { noEvents } from '../../../core/events/ports/event-publisher.port';
import type { EventSubscriber } from '../../../core/events/ports/event-subscriber.port';
import { noUnitOfWork, type UnitOfWork } from '../../../core/shared/unit-of-work.port';
import type { Getter } from '../app-module';
import { token } from '../tokens';

/**
 * The events area's seams (EVENTS.md). `Subscriber` is a multi-binding: an area that consumes domain
 * events (webhooks, notifications, plugins) adds one binding, e.g.
 * `c.bind(EVENT_TOKENS.Subscriber).toDynamicValue(() => resolve(c, MyHandler)).inSingletonScope()`,
 * and the dispatcher hands every committed event to each of them.
 */
export const EVENT_TOKENS = {
  Publisher: token<EventPublisher>('EventPublisher'),
  UnitOfWork: token<UnitOfWork>('UnitOfWork'),
  Subscriber: token<EventSubscriber>('EventSubscriber'),
  /** Wakes the dispatcher after events were committed outside the publisher (a chat turn's, by the engine). */
  Wake: token<() => void>('EventWake'),
} as const;

/** The publisher and unit of work when the app has the events area; otherwise ones that do nothing. */
export function eventDeps(c: Container, get: Getter): { events: EventPublisher; unitOfWork: UnitOfWork } {
  return c.isBound(EVENT_TOKENS.Publisher)
    ? { events: get(EVENT_TOKENS.Publisher), unitOfWork: get(EVENT_TOKENS.UnitOfWork) }
    : { events: noEvents, unitOfWork: noUnitOfWork };
}
