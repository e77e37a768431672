import type { Actor } from '../../shared/actor';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toConversationView, type ConversationView } from '../domain/conversation';
import type { ConversationRepository } from '../ports/conversation-repository.port';

/** The conversations of the caller's applications, newest first; `?applicationId=` narrows to one. */
export class ListConversationsUseCase {
  constructor(private readonly deps: { conversations: ConversationRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown; applicationId?: unknown }, actor: Actor): Promise<Page<ConversationView>> {
    const page = parsePageRequest(query);
    if (query.applicationId !== undefined && !isUuid(query.applicationId)) return { data: [], total: 0, ...page };
    const { items, total } = await this.deps.conversations.listByOwner(
      actor.userId,
      { applicationId: query.applicationId as string | undefined },
      offsetOf(page),
      page.limit,
    );
    return { data: items.map(toConversationView), total, page: page.page, limit: page.limit };
  }
}
