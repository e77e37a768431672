import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { findOwnedWebhook } from './find-owned-webhook';
import { enqueueDelivery, type WebhookDeps } from './webhook-deps';

/** Sends a delivery again now (a failed one, or one waiting for its next retry), with the same id and body. */
export class RetryDeliveryUseCase {
  constructor(private readonly deps: Pick<WebhookDeps, 'webhooks' | 'queue' | 'clock'> & { applications?: ApplicationRepository }) {}

  async execute(webhookId: string, deliveryId: string, actor: Actor): Promise<{ deliveryId: string; status: 'pending' }> {
    const webhook = await findOwnedWebhook(this.deps.webhooks, webhookId, actor, 'manage', this.deps.applications ?? null);
    const delivery = isUuid(deliveryId) ? await this.deps.webhooks.findDelivery(webhook.id, deliveryId) : null;
    if (!delivery) throw new NotFoundError('Delivery');
    if (!(await this.deps.webhooks.requeue(delivery.id, this.deps.clock.now()))) throw new ConflictError('This delivery is being sent right now');
    await enqueueDelivery(this.deps.queue, delivery.id, delivery.attempts + 1);
    return { deliveryId: delivery.id, status: 'pending' };
  }
}
