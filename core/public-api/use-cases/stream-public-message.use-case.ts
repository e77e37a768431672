import type { ChatStreamEvent } from '../../ai/ports/chat-engine.port';
import type { PublicCaller } from '../domain/public-caller';
import { openPublicTurn, type PublicChatDeps } from './open-public-turn';

/**
 * `POST /api/v1/chat/stream`: the streaming variant, `chunk` events then `done` (SPEC 4.4). Refusals
 * (scope, quota) are thrown before the first event, and before a new conversation is created; the
 * conversation id is known before the first event too.
 */
export class StreamPublicMessageUseCase {
  constructor(private readonly deps: PublicChatDeps) {}

  async execute(input: unknown, caller: PublicCaller, signal?: AbortSignal): Promise<{ conversationId: string; events: AsyncIterable<ChatStreamEvent> }> {
    const opened = await openPublicTurn(this.deps, input, caller);
    const events = await this.deps.runner.stream(opened.turn, { content: opened.turn.content, settings: {} }, signal, opened.opening);
    return { conversationId: opened.turn.conversation.id, events };
  }
}
