import { parseMessageRequest } from '../../ai/domain/message-request';
import type { PriceTable } from '../../ai/domain/model-catalog';
import type { ChatAnswer } from '../../ai/ports/chat-engine.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { answerCost, defaultPrices } from '../domain/answer-cost';
import type { ConversationRepository } from '../ports/conversation-repository.port';
import { findOwnedConversation } from './find-owned-conversation';
import type { ChatTurnRunner } from './run-chat-turn';

export type MessageDeps = {
  conversations: ConversationRepository;
  applications: ApplicationRepository;
  runner: ChatTurnRunner;
  /** The platform's prices (the catalogue's with the operator's over them), for each answer's `cost`. Default: the catalogue's. */
  prices?: PriceTable;
};

/** Sends a message in one of the caller's conversations and answers with the whole reply and its `cost` (the owner's view). */
export class SendMessageUseCase {
  constructor(private readonly deps: MessageDeps) {}

  async execute(id: string, body: unknown, actor: Actor, signal?: AbortSignal): Promise<ChatAnswer> {
    const request = await parseMessageRequest(body);
    const { conversation, application } = await findOwnedConversation(this.deps, id, actor, 'turn', 'read');
    const answer = await this.deps.runner.send({ ownerId: application.ownerId, application, conversation, content: request.content, source: 'dashboard' }, request, signal);
    return { ...answer, cost: answerCost(this.deps.prices ?? defaultPrices(), answer) };
  }
}
