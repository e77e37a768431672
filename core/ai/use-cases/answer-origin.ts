import type { AnswerMetadata, AnsweredBy } from '../domain/resilience';
import type { AnsweringProvider } from '../domain/provider-id';
import type { TokenUsage } from '../ports/llm-provider.port';
import type { PreparedChat } from './prepare-chat';

/**
 * Who answered a turn, for the stored message and the answer (docs/connections.md): the provider and model
 * that answered (a fallback's, when one did), and the message metadata (every attempt; an estimated usage).
 */
export function answerOrigin(chat: PreparedChat, usage?: TokenUsage | null): { provider: AnsweringProvider; model: string; metadata?: AnswerMetadata } {
  const answered = chat.resilient?.answeredBy;
  const metadata: AnswerMetadata = {
    ...(answered ? { answeredBy: answered } : {}),
    ...(chat.resilient?.attempts.length ? { attempts: chat.resilient.attempts } : {}),
    ...(usage?.estimated ? { usageEstimated: true } : {}),
  };
  return {
    provider: answered?.provider ?? chat.providerId,
    model: answered?.model ?? chat.model,
    ...(Object.keys(metadata).length ? { metadata } : {}),
  };
}

/** What the answer (and the stream's `done` event) says of who answered: only for a turn with a resilience policy. */
export function answeredByOf(chat: PreparedChat): { answeredBy?: AnsweredBy } {
  const answered = chat.resilient?.answeredBy;
  return answered ? { answeredBy: answered } : {};
}
