import { isAppError } from '../../shared/errors';
import { estimateUsage } from '../../shared/tokens';
import type { AnswerToolCall, ChatMessageRequest, ChatStreamEvent, ToolStop } from '../ports/chat-engine.port';
import type { TokenUsage } from '../ports/llm-provider.port';
import type { ProviderId } from '../domain/provider-id';
import type { NewConversation } from '../../conversations/ports/conversation-repository.port';
import { blameTheRightKey, prepareChat, type ChatEngineDeps } from './prepare-chat';
import { answerOrigin, answeredByOf } from './answer-origin';
import { answerToolCalls, startToolTurn, storeToolTurns, wantsTools } from './tool-turn';

const STATUS_BY_KIND: Record<string, number> = { upstream_failure: 502, upstream_timeout: 504, unavailable: 503, rate_limited: 429 };

/**
 * Streams the provider's answer chunk by chunk. Whatever happens the answer is stored: complete,
 * interrupted (the client went away: the partial text is kept) or failed.
 */
export class StreamChatMessageUseCase {
  constructor(private readonly deps: ChatEngineDeps) {}

  async execute(conversationId: string, input: ChatMessageRequest, signal?: AbortSignal, opening?: NewConversation): Promise<AsyncIterable<ChatStreamEvent>> {
    const chat = await prepareChat(this.deps, conversationId, input, opening);
    const deps = this.deps;
    const configVersionId = input.configVersionId ?? chat.conversation.configVersionId;

    async function* run(): AsyncGenerator<ChatStreamEvent> {
      const started = performance.now();
      const parts: string[] = [];
      let usage: TokenUsage | undefined;
      let stored = false;
      // With tools, the loop's calls and results: stored before the answer, whatever becomes of it.
      const tools = wantsTools(input) ? startToolTurn(deps, chat, input.tools, signal) : undefined;
      let toolCalls: AnswerToolCall[] | undefined;
      let stoppedBy: ToolStop | undefined;
      const store = async (status: 'complete' | 'interrupted' | 'failed', error?: string) => {
        stored = true;
        if (tools) await storeToolTurns(deps, chat, tools.turns);
        const answerUsage: TokenUsage = usage ?? { ...estimateUsage(chat.request.messages.map((m) => m.content).join('\n'), parts.join('')), estimated: true };
        return deps.conversations.addMessage({
          conversationId: chat.conversation.id,
          role: 'assistant',
          content: parts.join(''),
          status,
          ...answerOrigin(chat, answerUsage),
          usage: answerUsage,
          latencyMs: Math.round(performance.now() - started),
          error: error ?? null,
          configVersionId,
          sources: input.sources ?? null,
          ...(input.announce ? { announce: input.announce } : {}),
        });
      };
      let finished = false;
      try {
        if (tools) {
          let step = await tools.loop.next();
          while (!step.done) {
            const event = step.value;
            if (event.type === 'delta') {
              if (event.text !== '') {
                parts.push(event.text);
                yield { type: 'chunk', content: event.text };
              }
            } else yield event;
            step = await tools.loop.next();
          }
          usage = step.value.usage;
          toolCalls = answerToolCalls(step.value);
          stoppedBy = step.value.stoppedBy;
        } else {
          for await (const part of chat.provider.stream({ ...chat.request, signal })) {
            if (part.type === 'usage') {
              usage = part.usage;
              continue;
            }
            // Tool calls come only when a request offers tools; this branch offers none.
            if (part.type !== 'delta' || part.text === '') continue;
            parts.push(part.text);
            yield { type: 'chunk', content: part.text };
          }
        }
        if (signal?.aborted) throw signal.reason;
        finished = true;
        const message = await store('complete');
        yield {
          type: 'done',
          fullResponse: message.content,
          conversationId: chat.conversation.id,
          ...(chat.userMessageId ? { userMessageId: chat.userMessageId } : {}),
          messageId: message.id,
          usage: message.usage!,
          provider: message.provider as ProviderId,
          model: message.model ?? chat.model,
          ...answeredByOf(chat),
          latencyMs: message.latencyMs ?? 0,
          ...(input.sources?.length ? { sources: input.sources } : {}),
          ...(toolCalls?.length ? { toolCalls } : {}),
          ...(stoppedBy ? { stoppedBy } : {}),
        };
      } catch (failure) {
        if (finished) throw failure;
        const error = blameTheRightKey(chat, failure);
        if (signal?.aborted) {
          await store('interrupted', 'The client aborted the stream');
          return;
        }
        const message = isAppError(error) ? error.message : 'The provider request failed';
        await store('failed', message);
        const status = isAppError(error) ? ('status' in error && typeof error.status === 'number' ? error.status : (STATUS_BY_KIND[error.kind] ?? 500)) : 502;
        yield { type: 'error', message, statusCode: status };
      } finally {
        // The consumer stopped reading mid-stream (the generator was returned): keep what was said.
        if (!stored) await store('interrupted', 'The client aborted the stream');
      }
    }
    return run();
  }
}
