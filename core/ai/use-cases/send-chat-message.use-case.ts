import { isAppError } from '../../shared/errors';
import type { ChatAnswer, ChatMessageRequest } from '../ports/chat-engine.port';
import type { NewConversation } from '../../conversations/ports/conversation-repository.port';
import type { TokenUsage } from '../ports/llm-provider.port';
import { blameTheRightKey, prepareChat, type ChatEngineDeps, type PreparedChat } from './prepare-chat';
import { answerOrigin, answeredByOf } from './answer-origin';
import { answerToolCalls, startToolTurn, storeToolTurns, wantsTools } from './tool-turn';

interface Answered {
  content: string;
  usage: TokenUsage;
  toolCalls?: ChatAnswer['toolCalls'];
  stoppedBy?: ChatAnswer['stoppedBy'];
}

/** Sends a message to the conversation's provider and stores the whole answer with its usage and latency. */
export class SendChatMessageUseCase {
  constructor(private readonly deps: ChatEngineDeps) {}

  async execute(conversationId: string, input: ChatMessageRequest, signal?: AbortSignal, opening?: NewConversation): Promise<ChatAnswer> {
    const chat = await prepareChat(this.deps, conversationId, input, opening);
    const started = performance.now();
    let result: Answered;
    try {
      result = await this.answer(chat, input, signal);
    } catch (failure) {
      const error = blameTheRightKey(chat, failure);
      await this.deps.conversations.addMessage({
        conversationId: chat.conversation.id,
        role: 'assistant',
        content: '',
        status: 'failed',
        ...answerOrigin(chat),
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
      ...answerOrigin(chat, result.usage),
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
      provider: message.provider as ChatAnswer['provider'],
      model: message.model ?? chat.model,
      ...answeredByOf(chat),
      latencyMs,
      ...(input.sources?.length ? { sources: input.sources } : {}),
      ...(result.toolCalls?.length ? { toolCalls: result.toolCalls } : {}),
      ...(result.stoppedBy ? { stoppedBy: result.stoppedBy } : {}),
    };
  }

  /** One provider call, or the tool loop (docs/tools.md) when the request carries tools: its calls and results are stored before the answer. */
  private async answer(chat: PreparedChat, input: ChatMessageRequest, signal?: AbortSignal): Promise<Answered> {
    if (!wantsTools(input)) {
      const { content, usage } = await chat.provider.chat({ ...chat.request, signal });
      return { content, usage };
    }
    const turn = startToolTurn(this.deps, chat, input.tools, signal);
    try {
      let step = await turn.loop.next();
      while (!step.done) step = await turn.loop.next();
      const result = step.value;
      return { content: result.content, usage: result.usage, toolCalls: answerToolCalls(result), ...(result.stoppedBy ? { stoppedBy: result.stoppedBy } : {}) };
    } finally {
      // What was called stays in the history, whether the turn then answered or failed.
      await storeToolTurns(this.deps, chat, turn.turns);
    }
  }
}
