import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import type { WebhookRepository } from '../ports/webhook-repository.port';
import { findOwnedWebhook } from './find-owned-webhook';

/** Deletes a webhook with its deliveries and log. */
export class DeleteWebhookUseCase {
  constructor(private readonly deps: { webhooks: WebhookRepository; applications?: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const webhook = await findOwnedWebhook(this.deps.webhooks, id, actor, 'manage', this.deps.applications ?? null);
    await this.deps.webhooks.delete(webhook.id);
  }
}
