import { parseMessageRequest } from '../../ai/domain/message-request';
import type { ChatStreamEvent } from '../../ai/ports/chat-engine.port';
import type { Actor } from '../../shared/actor';
import { defaultPrices, withAnswerCost } from '../domain/answer-cost';
import { findOwnedConversation } from './find-owned-conversation';
import type { MessageDeps } from './send-message.use-case';

/**
 * The streaming variant: SSE `chunk` events, then `done` (SPEC 4.4), which carries what the answer's meta
 * shows: provider, model, usage, latency and, for the owner, `cost` (null when unknown). The public API's
 * and the hosted page's streams carry no cost.
 */
export class StreamMessageUseCase {
  constructor(private readonly deps: MessageDeps) {}

  async execute(id: string, body: unknown, actor: Actor, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const request = await parseMessageRequest(body);
    const { conversation, application } = await findOwnedConversation(this.deps, id, actor, 'turn', 'read');
    const events = await this.deps.runner.stream({ ownerId: application.ownerId, application, conversation, content: request.content, source: 'dashboard' }, request, signal);
    return withAnswerCost(events, this.deps.prices ?? defaultPrices());
  }
}
