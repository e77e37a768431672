import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { randomUUID } from 'node:crypto';
import { TEST_EVENT_TYPE } from '../../events/domain/domain-event';
import type { Actor } from '../../shared/actor';
import { findOwnedWebhook } from './find-owned-webhook';
import { enqueueDelivery, type WebhookDeps } from './webhook-deps';

/** Queues a `webhook.test` ping to one webhook, delivered (signed, retried, logged) like any event. */
export class SendTestPingUseCase {
  constructor(private readonly deps: Pick<WebhookDeps, 'webhooks' | 'queue' | 'clock'> & { applications?: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<{ eventId: string; deliveryId: string }> {
    const webhook = await findOwnedWebhook(this.deps.webhooks, id, actor, 'manage', this.deps.applications ?? null);
    const now = this.deps.clock.now();
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const payload = JSON.stringify({ id: eventId, type: TEST_EVENT_TYPE, timestamp: now.toISOString(), data: { webhookId: webhook.id } });
    const deliveryId = (await this.deps.webhooks.addDelivery({ webhookId: webhook.id, eventId, eventType: TEST_EVENT_TYPE, payload, dueAt: now }))!;
    await enqueueDelivery(this.deps.queue, deliveryId, 1);
    return { eventId, deliveryId };
  }
}
