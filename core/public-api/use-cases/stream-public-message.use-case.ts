import type { ChatStreamEvent } from '../../ai/ports/chat-engine.port';
import type { PublicCaller } from '../domain/public-caller';
import { openPublicTurn, type PublicChatDeps } from './open-public-turn';

/**
 * `POST /api/v1/chat/stream`: the streaming variant, `chunk` events then `done` (SPEC 4.4). Refusals
 * (scope, quota) are thrown before the first event; the conversation id is known before it too.
 */
export class StreamPublicMessageUseCase {
  constructor(private readonly deps: PublicChatDeps) {}

  async execute(input: unknown, caller: PublicCaller, signal?: AbortSignal): Promise<{ conversationId: string; events: AsyncIterable<ChatStreamEvent> }> {
    const turn = await openPublicTurn(this.deps, input, caller);
    const events = await this.deps.runner.stream(turn, { content: turn.content, settings: {} }, signal);
    return { conversationId: turn.conversation.id, events };
  }
}
