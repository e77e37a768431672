import { isAppError } from '../../shared/errors';
import type { ChatAnswer, ChatMessageRequest } from '../ports/chat-engine.port';
import type { NewConversation } from '../../conversations/ports/conversation-repository.port';
import { blameTheRightKey, prepareChat, type ChatEngineDeps } from './prepare-chat';

/** Sends a message to the conversation's provider and stores the whole answer with its usage and latency. */
export class SendChatMessageUseCase {
  constructor(private readonly deps: ChatEngineDeps) {}

  async execute(conversationId: string, input: ChatMessageRequest, signal?: AbortSignal, opening?: NewConversation): Promise<ChatAnswer> {
    const chat = await prepareChat(this.deps, conversationId, input, opening);
    const started = performance.now();
    let result;
    try {
      result = await chat.provider.chat({ ...chat.request, signal });
    } catch (failure) {
      const error = blameTheRightKey(chat, failure);
      await this.deps.conversations.addMessage({
        conversationId: chat.conversation.id,
        role: 'assistant',
        content: '',
        status: 'failed',
        provider: chat.providerId,
        model: chat.model,
        latencyMs: Math.round(performance.now() - started),
        error: isAppError(error) ? error.message : 'The provider request failed',
        configVersionId: input.configVersionId ?? chat.conversation.configVersionId,
      });
      throw error;
    }
    const latencyMs = Math.round(performance.now() - started);
    const message = await this.deps.conversations.addMessage({
      conversationId: chat.conversation.id,
      role: 'assistant',
      content: result.content,
      status: 'complete',
      provider: chat.providerId,
      model: chat.model,
      usage: result.usage,
      latencyMs,
      configVersionId: input.configVersionId ?? chat.conversation.configVersionId,
      sources: input.sources ?? null,
      ...(input.announce ? { announce: input.announce } : {}),
    });
    return {
      conversationId: chat.conversation.id,
      ...(chat.userMessageId ? { userMessageId: chat.userMessageId } : {}),
      message: { id: message.id, role: 'assistant', content: message.content, createdAt: message.createdAt.toISOString() },
      usage: result.usage,
      provider: chat.providerId,
      model: chat.model,
      latencyMs,
      ...(input.sources?.length ? { sources: input.sources } : {}),
    };
  }
}
