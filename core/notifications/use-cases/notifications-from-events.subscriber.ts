import type { DomainEvent } from '../../events/domain/domain-event';
import type { EventSubscriber } from '../../events/ports/event-subscriber.port';
import type { NewNotification } from '../domain/notification';
import type { Notify } from './notify';

/**
 * The notifications domain events cause (EVENTS.md): quota at 80 / 100 %, a payment that failed (a
 * subscription turning past due), a plan change or a subscription ending, a plugin deactivated automatically. Keyed by event id, so an event
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
      if (d.status === 'past_due' && d.previousStatus !== 'past_due') {
        return { type: 'error', category: 'billing', title: 'A payment failed', body: 'Your subscription is past due; update your payment method to keep your plan.', actionUrl: '/billing' };
      }
      // Plan changes (an admin's, or a paid subscription starting, changing or ending) when the event says what it was.
      if (typeof d.previousPlan !== 'string') return null;
      if (d.status === 'canceled' && d.previousStatus !== 'canceled') {
        return { type: 'info', category: 'billing', title: `Your ${planName(d.plan)} subscription ended`, body: 'The Free plan rules apply from now: chats run on your own provider keys.', actionUrl: '/billing' };
      }
      if (d.plan !== d.previousPlan || (d.status === 'active' && (d.previousStatus === 'canceled' || d.previousStatus === 'incomplete'))) {
        return { type: 'success', category: 'billing', title: `Your plan is now ${planName(d.plan)}`, body: `Your subscription is ${String(d.status).replace('_', ' ')}.`, actionUrl: '/billing' };
      }
      return null;
    case 'plugin.deactivated':
      if (!d.reason) return null;
      return { type: 'warning', category: 'plugin', title: 'A plugin was deactivated', body: `Plugin ${String(d.pluginId)} was deactivated: ${String(d.reason)}`, actionUrl: `/applications/${String(d.applicationId)}/plugins` };
    default:
      return null;
  }
}

const planName = (tier: unknown): string => (typeof tier === 'string' && tier ? tier[0]!.toUpperCase() + tier.slice(1) : 'paid');
