import type { ConversationWithMessages } from '../../ai/ports/chat-engine.port';
import type { PriceTable } from '../../ai/domain/model-catalog';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { answerCost, defaultPrices } from '../domain/answer-cost';
import { toConversationView, toMessageView } from '../domain/conversation';
import type { ConversationRepository } from '../ports/conversation-repository.port';
import { findOwnedConversation } from './find-owned-conversation';

/** One of the caller's conversations with its whole history; each answer with its `cost` (null when unknown). */
export class GetConversationUseCase {
  private readonly prices: PriceTable;

  constructor(private readonly deps: { conversations: ConversationRepository; applications: ApplicationRepository; prices?: PriceTable }) {
    this.prices = deps.prices ?? defaultPrices();
  }

  async execute(id: string, actor: Actor): Promise<ConversationWithMessages> {
    const { conversation } = await findOwnedConversation(this.deps, id, actor, 'read', 'read');
    const messages = await this.deps.conversations.messages(conversation.id);
    return { ...toConversationView(conversation), messages: messages.map((m) => ({ ...toMessageView(m), cost: m.role === 'assistant' ? answerCost(this.prices, m) : null })) };
  }
}
