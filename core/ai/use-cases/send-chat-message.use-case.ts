import { isAppError } from '../../shared/errors';
import type { ChatAnswer, ChatMessageRequest } from '../ports/chat-engine.port';
import type { ChatRequest, ChatResult, LlmProvider } from '../ports/llm-provider.port';
import type { NewConversation } from '../../conversations/ports/conversation-repository.port';
import { startChat, type ChatEngineDeps } from './start-chat';

/** Sends a message to the conversation's provider and stores the whole answer with its usage and latency. */
export class SendChatMessageUseCase {
  constructor(private readonly deps: ChatEngineDeps) {}

  async execute(conversationId: string, input: ChatMessageRequest, signal?: AbortSignal, opening?: NewConversation): Promise<ChatAnswer> {
    const chat = await startChat(this.deps, conversationId, input, ask, signal, opening);
    const started = chat.startedAt;
    let result;
    try {
      result = await chat.call;
    } catch (error) {
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
    });
    return {
      conversationId: chat.conversation.id,
      message: { id: message.id, role: 'assistant', content: message.content, createdAt: message.createdAt.toISOString() },
      usage: result.usage,
      provider: chat.providerId,
      model: chat.model,
      latencyMs,
      ...(input.sources?.length ? { sources: input.sources } : {}),
    };
  }

}

/** Asks the provider; a call dropped before anyone awaits it must not fail unhandled. */
function ask(provider: LlmProvider, request: ChatRequest): Promise<ChatResult> {
  const pending = provider.chat(request);
  pending.catch(() => undefined);
  return pending;
}
