import type { ConversationSource, MessageSource, MessageToolCall, MessageView } from '../../conversations/domain/conversation';
import type { TraceView } from '../../traces/domain/trace-view';

/**
 * Where a conversation came from, as the logs name it (docs/logs.md): the console's chat (and the studio's
 * debug chat), the public API (and MCP, which runs on API keys), the widget, the hosted page (widget
 * conversations without a key), and workflows (API conversations without a key).
 */
export const LOG_CHANNELS = ['console', 'api', 'widget', 'hosted_page', 'workflow'] as const;
export type LogChannel = (typeof LOG_CHANNELS)[number];

export function channelOf(source: ConversationSource, apiKeyId: string | null): LogChannel {
  if (source === 'dashboard') return 'console';
  if (source === 'widget') return apiKeyId ? 'widget' : 'hosted_page';
  return apiKeyId ? 'api' : 'workflow';
}

/** Which answers a rating filter keeps: rated at all, thumbs up (4–5), thumbs down (1–2), or not rated. */
export const RATING_FILTERS = ['rated', 'good', 'bad', 'unrated'] as const;
export type RatingFilter = (typeof RATING_FILTERS)[number];

export interface LogFilter {
  channels?: LogChannel[];
  /** Last activity at or after. */
  from?: Date;
  /** Last activity before. */
  to?: Date;
  rating?: RatingFilter;
  /** Only conversations with (true) or without (false) a failed answer. */
  errors?: boolean;
  /** Only conversations whose answers called (true) or never called (false) a tool. */
  tools?: boolean;
  /** Words every matching conversation holds in one of its messages. */
  search?: string;
}

/** Who talked: the API key's name (public API, widget), a visitor of the hosted page, a workflow, or a console user. */
export interface LogEndUser {
  kind: 'api_key' | 'visitor' | 'workflow' | 'console';
  /** The API key's name, for `api_key`. */
  name: string | null;
}

/** One row of the logs list, as the store reads it. */
export interface LogRow {
  id: string;
  title: string;
  status: 'active' | 'archived';
  source: ConversationSource;
  apiKeyId: string | null;
  apiKeyName: string | null;
  firstMessage: string | null;
  messageCount: number;
  /** Tokens by provider and model, for the cost. */
  usage: Array<{ provider: string; model: string; promptTokens: number; completionTokens: number }>;
  ratingUp: number;
  ratingDown: number;
  ratingAverage: number | null;
  failedAnswers: number;
  toolCalls: number;
  createdAt: Date;
  lastActivityAt: Date;
}

export interface LogRowView {
  id: string;
  title: string;
  channel: LogChannel;
  endUser: LogEndUser;
  firstMessage: string | null;
  messageCount: number;
  tokens: { prompt: number; completion: number; total: number };
  /** US dollars at the platform's prices; null when no answer of it has a known price. */
  cost: number | null;
  rating: { up: number; down: number; average: number | null };
  failedAnswers: number;
  toolCalls: number;
  createdAt: string;
  lastActivityAt: string;
}

export function endUserOf(source: ConversationSource, apiKeyId: string | null, apiKeyName: string | null): LogEndUser {
  const channel = channelOf(source, apiKeyId);
  if (channel === 'console') return { kind: 'console', name: null };
  if (channel === 'hosted_page') return { kind: 'visitor', name: null };
  if (channel === 'workflow') return { kind: 'workflow', name: null };
  return { kind: 'api_key', name: apiKeyName };
}

/** A message of one conversation's log. */
export interface LogMessageView extends Pick<MessageView, 'id' | 'role' | 'content' | 'status' | 'provider' | 'model' | 'usage' | 'latencyMs'> {
  error: string | null;
  sources: MessageSource[];
  toolCalls: MessageToolCall[];
  /** A `tool` message: the call it answers, the tool, whether it is an error. */
  toolCallId: string | null;
  toolName: string | null;
  isError: boolean;
  rating: number | null;
  cost: number | null;
  /** The annotation that answered instead of the model (annotation replies), else null. */
  answeredByAnnotationId: string | null;
  /** The annotation made of this answer, if any. */
  annotationId: string | null;
  /** The turn's trace, for assistant messages whose trace was recorded. */
  trace: TraceView | null;
  createdAt: string;
}

export interface LogConversationView {
  id: string;
  title: string;
  channel: LogChannel;
  endUser: LogEndUser;
  status: 'active' | 'archived';
  createdAt: string;
  lastActivityAt: string;
  messages: LogMessageView[];
}
