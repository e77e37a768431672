import { parseTeamFilter } from '../../applications/use-cases/list-applications.use-case';
import type { Actor } from '../../shared/actor';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toConversationView, type ConversationView } from '../domain/conversation';
import type { ConversationRepository } from '../ports/conversation-repository.port';

/** The conversations of the caller's applications and their teams', newest first; `?applicationId=` narrows to one, `?teamId=` to a team's (or `personal`). */
export class ListConversationsUseCase {
  constructor(private readonly deps: { conversations: ConversationRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown; applicationId?: unknown; teamId?: unknown }, actor: Actor): Promise<Page<ConversationView>> {
    const page = parsePageRequest(query);
    const teamId = parseTeamFilter(query.teamId);
    if (query.applicationId !== undefined && !isUuid(query.applicationId)) return { data: [], total: 0, ...page };
    const { items, total } = await this.deps.conversations.listByOwner(
      actor.userId,
      { applicationId: query.applicationId as string | undefined, teamId },
      offsetOf(page),
      page.limit,
    );
    return { data: items.map(toConversationView), total, page: page.page, limit: page.limit };
  }
}
