import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { toWebhookView, type WebhookView } from '../domain/webhook';
import type { WebhookRepository } from '../ports/webhook-repository.port';
import { findOwnedWebhook } from './find-owned-webhook';

/**
 * One webhook, without its secret: its owner, or a member of the team of its application (any role, as
 * the list shows it to them). Another user's webhook, or none, is the same 404.
 */
export class GetWebhookUseCase {
  constructor(private readonly deps: { webhooks: WebhookRepository; applications?: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<WebhookView> {
    return toWebhookView(await findOwnedWebhook(this.deps.webhooks, id, actor, 'read', this.deps.applications ?? null));
  }
}
