import { envelopeOf, type DomainEvent } from '../../events/domain/domain-event';
import type { EventSubscriber } from '../../events/ports/event-subscriber.port';
import { enqueueDelivery, type WebhookDeps } from './webhook-deps';

/**
 * Turns a committed event into one delivery per subscribed webhook of its owner and queues them. The
 * delivery is unique per webhook and event, so an event handed over twice is still sent once.
 */
export class WebhookFanOut implements EventSubscriber {
  readonly name = 'webhooks';

  constructor(private readonly deps: Pick<WebhookDeps, 'webhooks' | 'queue' | 'clock'>) {}

  async handle(event: DomainEvent): Promise<void> {
    const targets = await this.deps.webhooks.subscribedTo(event.ownerId, event.type, event.applicationId, new Date(event.timestamp));
    if (targets.length === 0) return;
    const payload = JSON.stringify(envelopeOf(event));
    const now = this.deps.clock.now();
    for (const webhook of targets) {
      const deliveryId = await this.deps.webhooks.addDelivery({ webhookId: webhook.id, eventId: event.id, eventType: event.type, payload, dueAt: now });
      if (deliveryId) await enqueueDelivery(this.deps.queue, deliveryId, 1);
    }
  }
}
