import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { ConversationRepository } from '../../conversations/ports/conversation-repository.port';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { toPublicConversationView, type PublicConversationView } from '../domain/public-views';
import type { PublicCaller } from '../domain/public-caller';
import { usableApplication } from './scoped-application';

/**
 * `GET /api/v1/conversations/:id`: the history of a conversation this same key started. Dashboard
 * conversations and those of other keys are "not found", even for a key of the same owner.
 */
export class GetPublicConversationUseCase {
  constructor(private readonly deps: { conversations: ConversationRepository; applications: ApplicationRepository }) {}

  async execute(id: string, caller: PublicCaller): Promise<PublicConversationView> {
    const conversation = isUuid(id) ? await this.deps.conversations.findById(id) : null;
    if (!conversation || conversation.apiKeyId !== caller.key.id) throw new NotFoundError('Conversation');
    usableApplication(await this.deps.applications.findById(conversation.applicationId), caller);
    return toPublicConversationView(conversation, await this.deps.conversations.messages(conversation.id));
  }
}
