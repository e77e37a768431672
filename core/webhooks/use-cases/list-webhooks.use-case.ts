import { parseTeamFilter } from '../../applications/use-cases/list-applications.use-case';
import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toWebhookView, type WebhookView } from '../domain/webhook';
import type { WebhookRepository } from '../ports/webhook-repository.port';

/** The caller's webhooks and their teams' (`?teamId=` narrows), newest first, without secrets. */
export class ListWebhooksUseCase {
  constructor(private readonly deps: { webhooks: WebhookRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown; teamId?: unknown }, actor: Actor): Promise<Page<WebhookView>> {
    const page = parsePageRequest(query);
    const { items, total } = await this.deps.webhooks.listByOwner(actor.userId, offsetOf(page), page.limit, parseTeamFilter(query.teamId));
    return { data: items.map(toWebhookView), total, page: page.page, limit: page.limit };
  }
}
