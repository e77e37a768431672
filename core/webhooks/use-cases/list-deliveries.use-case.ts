import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import type { DeliveryAttemptView } from '../domain/webhook';
import type { WebhookRepository } from '../ports/webhook-repository.port';
import { findOwnedWebhook } from './find-owned-webhook';

/** The delivery log of one of the caller's webhooks: every attempt, newest first. */
export class ListDeliveriesUseCase {
  constructor(private readonly deps: { webhooks: WebhookRepository; applications?: ApplicationRepository }) {}

  async execute(id: string, query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<DeliveryAttemptView>> {
    const webhook = await findOwnedWebhook(this.deps.webhooks, id, actor, 'manage', this.deps.applications ?? null);
    const page = parsePageRequest(query);
    const { items, total } = await this.deps.webhooks.attempts(webhook.id, offsetOf(page), page.limit);
    return { data: items, total, page: page.page, limit: page.limit };
  }
}
