import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { ConversationRepository } from '../../conversations/ports/conversation-repository.port';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { toPublicConversationView, type PublicConversationView } from '../domain/public-views';
import type { ConversationTokens } from '../ports/conversation-tokens.port';
import { findHostedApplication } from './hosted-application';

/** `GET /api/hosted/:slug/conversations/:id`: the history, for the visitor holding the conversation's token. */
export class GetHostedConversationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; conversations: ConversationRepository; tokens: ConversationTokens }) {}

  async execute(slug: string, id: string, token: string): Promise<PublicConversationView> {
    const application = await findHostedApplication(this.deps.applications, slug);
    const conversation = isUuid(id) ? await this.deps.conversations.findById(id) : null;
    if (!conversation || conversation.applicationId !== application.id || !this.deps.tokens.verify(conversation.id, token)) {
      throw new NotFoundError('Conversation');
    }
    return toPublicConversationView(conversation, await this.deps.conversations.messages(conversation.id));
  }
}
