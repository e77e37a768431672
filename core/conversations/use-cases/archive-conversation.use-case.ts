import type { ChatEngine } from '../../ai/ports/chat-engine.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { Actor } from '../../shared/actor';
import type { ConversationRepository } from '../ports/conversation-repository.port';
import { findOwnedConversation } from './find-owned-conversation';

/** Archives one of the caller's conversations: kept and readable, closed to new messages. */
export class ArchiveConversationUseCase {
  constructor(private readonly deps: { conversations: ConversationRepository; applications: ApplicationRepository; engine: ChatEngine; events?: EventPublisher }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const { conversation, application } = await findOwnedConversation(this.deps, id, actor, 'read', 'write');
    if (conversation.status === 'archived') return;
    await this.deps.engine.archiveConversation(conversation.id);
    await this.deps.events?.publish({
      type: 'conversation.archived',
      ownerId: application.ownerId,
      applicationId: conversation.applicationId,
      data: { applicationId: conversation.applicationId, conversationId: conversation.id },
    });
  }
}
