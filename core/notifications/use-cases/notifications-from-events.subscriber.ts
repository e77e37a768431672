import type { DomainEvent } from '../../events/domain/domain-event';
import type { EventSubscriber } from '../../events/ports/event-subscriber.port';
import type { NewNotification } from '../domain/notification';
import type { Notify } from './notify';

/**
 * The notifications domain events cause (EVENTS.md): quota at 80 / 100 %, a payment that failed (a
 * subscription turning past due), a plugin deactivated automatically. Keyed by event id, so an event
 * handed over twice notifies once.
 */
export class NotificationsFromEvents implements EventSubscriber {
  readonly name = 'notifications';

  constructor(private readonly notify: Notify) {}

  async handle(event: DomainEvent): Promise<void> {
    const notification = notificationFor(event);
    if (notification) await this.notify.send({ ...notification, userId: event.ownerId, sourceKey: `event:${event.id}` });
  }
}

function notificationFor(event: DomainEvent): Omit<NewNotification, 'userId'> | null {
  const d = event.data;
  switch (event.type) {
    case 'usage.limit_reached': {
      const what = d.metric === 'messages' ? 'messages' : 'tokens';
      const full = Number(d.threshold) >= 100;
      return {
        type: full ? 'error' : 'warning',
        category: 'billing',
        title: full ? `You have used all the ${what} of your plan this period` : `You have used ${String(d.threshold)} % of the ${what} of your plan`,
        body: `${String(d.used)} of ${String(d.limit)} ${what} used; the period ends ${String(d.periodEnd)}.`,
        actionUrl: '/billing',
      };
    }
    case 'subscription.updated':
      if (d.status !== 'past_due' || d.previousStatus === 'past_due') return null;
      return { type: 'error', category: 'billing', title: 'A payment failed', body: 'Your subscription is past due; update your payment method to keep your plan.', actionUrl: '/billing' };
    case 'plugin.deactivated':
      if (!d.reason) return null;
      return { type: 'warning', category: 'plugin', title: 'A plugin was deactivated', body: `Plugin ${String(d.pluginId)} was deactivated: ${String(d.reason)}`, actionUrl: `/applications/${String(d.applicationId)}/plugins` };
    default:
      return null;
  }
}
