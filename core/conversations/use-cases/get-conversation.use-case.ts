import type { ConversationWithMessages } from '../../ai/ports/chat-engine.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { toConversationView, toMessageView } from '../domain/conversation';
import type { ConversationRepository } from '../ports/conversation-repository.port';
import { findOwnedConversation } from './find-owned-conversation';

/** One of the caller's conversations with its whole history. */
export class GetConversationUseCase {
  constructor(private readonly deps: { conversations: ConversationRepository; applications: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<ConversationWithMessages> {
    const { conversation } = await findOwnedConversation(this.deps, id, actor, 'read', 'read');
    const messages = await this.deps.conversations.messages(conversation.id);
    return { ...toConversationView(conversation), messages: messages.map(toMessageView) };
  }
}
