import type { AnswerMetadata, AnsweredBy } from '../../ai/domain/resilience';
import type { TokenUsage } from '../../ai/ports/llm-provider.port';

export type ConversationStatus = 'active' | 'archived';
export type ConversationSource = 'dashboard' | 'api' | 'widget';
/** `tool`: a tool's result within a turn, answering one of the calls of the assistant message before it. */
export type MessageRole = 'user' | 'assistant' | 'tool';

/** A call an assistant message made (docs/tools.md): `arguments` parsed when the model wrote JSON, else its text. */
export interface MessageToolCall {
  id: string;
  name: string;
  arguments: unknown;
}
/** `interrupted`: the client aborted the stream and the partial answer was kept; `failed`: the provider failed. */
export type MessageStatus = 'complete' | 'interrupted' | 'failed';

export interface Conversation {
  id: string;
  applicationId: string;
  title: string;
  status: ConversationStatus;
  source: ConversationSource;
  /** The API key that started it (public API), so the same key's scope can read it back. */
  apiKeyId: string | null;
  /** The A/B version of the model config assigned at creation, kept for the conversation's life. */
  configVersionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A knowledge-base passage an answer drew on: where it is, how close it was, and what a reader needs to cite it. */
export interface MessageSource {
  documentId: string;
  chunkIndex: number;
  score: number;
  /** The document's file name (absent on answers stored before it was recorded). */
  fileName?: string;
  /** The start of the passage, for a citation (at most EXCERPT_LENGTH characters). */
  excerpt?: string;
  /** Its page (PDF), for a citation such as "handbook.pdf, p. 12"; null or absent when the format has none. */
  page?: number | null;
  /** Its heading path ("Leave > Sick leave"); null or absent before any heading. */
  section?: string | null;
}

export interface Message {
  id: string;
  conversationId: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  provider: string | null;
  model: string | null;
  usage: TokenUsage | null;
  latencyMs: number | null;
  error: string | null;
  configVersionId: string | null;
  sources: MessageSource[] | null;
  rating: number | null;
  /** An assistant message that called tools: the calls, in order. */
  toolCalls?: MessageToolCall[] | null;
  /** A `tool` message: the call it answers, the tool's name, and whether its content is an error. */
  toolCallId?: string | null;
  toolName?: string | null;
  isError?: boolean | null;
  /** An answer's: who answered (a fallback?), each provider attempt, whether the usage is an estimate. */
  metadata?: AnswerMetadata | null;
  createdAt: Date;
}

export interface ConversationView {
  id: string;
  applicationId: string;
  title: string;
  status: ConversationStatus;
  createdAt: string;
}

export interface MessageView {
  id: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  provider: string | null;
  model: string | null;
  usage: TokenUsage | null;
  latencyMs: number | null;
  sources?: MessageSource[];
  rating?: number;
  toolCalls?: MessageToolCall[];
  toolCallId?: string;
  name?: string;
  isError?: boolean;
  /** US dollars this answer cost at the platform's prices; null when unknown (no usage, or a model without a price). Set by the core API. */
  cost?: number | null;
  /** An answer of a turn with a resilience policy: which provider and model answered, and whether it was a fallback. */
  answeredBy?: AnsweredBy;
  /** The usage is the platform's estimate: the provider reported none. */
  usageEstimated?: boolean;
  createdAt: string;
}

export const toConversationView = (c: Conversation): ConversationView => ({
  id: c.id,
  applicationId: c.applicationId,
  title: c.title,
  status: c.status,
  createdAt: c.createdAt.toISOString(),
});

export const toMessageView = (m: Message): MessageView => ({
  id: m.id,
  role: m.role,
  content: m.content,
  status: m.status,
  provider: m.provider,
  model: m.model,
  usage: m.usage,
  latencyMs: m.latencyMs,
  ...(m.sources ? { sources: m.sources } : {}),
  ...(m.rating ? { rating: m.rating } : {}),
  ...(m.toolCalls?.length ? { toolCalls: m.toolCalls } : {}),
  ...(m.role === 'tool' ? { toolCallId: m.toolCallId ?? '', name: m.toolName ?? '', isError: m.isError === true } : {}),
  ...(m.metadata?.answeredBy ? { answeredBy: m.metadata.answeredBy } : {}),
  ...(m.metadata?.usageEstimated ? { usageEstimated: true } : {}),
  createdAt: m.createdAt.toISOString(),
});

/** The title a conversation created without one carries until its first message names it. */
export const UNTITLED = 'New conversation';

/** How long a title taken from a message may be, in characters (the ellipsis included). */
export const TITLE_LENGTH = 60;

/**
 * A title from the first message: its first non-empty line with runs of white space collapsed, cut on a
 * word boundary to at most TITLE_LENGTH characters with an ellipsis (a single word longer than that is
 * cut inside it); `New conversation` for a message with no text.
 */
export const titleFrom = (content: string): string => {
  const line = (content.split('\n').find((l) => l.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  if (line === '') return UNTITLED;
  if (line.length <= TITLE_LENGTH) return line;
  const room = line.slice(0, TITLE_LENGTH - 1);
  const space = room.lastIndexOf(' ');
  const cut = space >= TITLE_LENGTH / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`;
};
