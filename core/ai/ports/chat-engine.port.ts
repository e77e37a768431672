import type { OpenedConnection } from '../../connections/ports/connection-endpoints.port';
import type { ConversationSource, ConversationView, MessageSource, MessageView } from '../../conversations/domain/conversation';
import type { TurnAnnouncement } from '../../conversations/ports/conversation-repository.port';
import type { AnsweringProvider, ProviderId } from '../domain/provider-id';
import type { AnsweredBy } from '../domain/resilience';
import type { TokenUsage } from './llm-provider.port';
import type { AgentSettings } from '../../tools/domain/agent-settings';
import type { Tool } from '../../tools/domain/tool';
import type { TurnTrace } from '../../traces/domain/turn-trace';

/** A tool call of a turn as its answer reports it (docs/tools.md): what was called and how it went. */
export interface AnswerToolCall {
  id: string;
  name: string;
  arguments: unknown;
  isError: boolean;
  durationMs: number;
}

/** Which limit ended a turn with tools before the model's answer. */
export type ToolStop = 'maxToolRounds' | 'timeBudget';

/**
 * The tools a turn may call, fixed before the turn starts (nothing the model or a tool says changes
 * them): the application's enabled tools (sealed secrets stay sealed until a call runs) and its agent settings.
 */
export interface TurnTools {
  tools: Tool[];
  settings: AgentSettings;
  /** Whose application it is (calls run with their data and limits). */
  ownerId: string;
}

/** A conversation to create: by itself (`createConversation`) or with its first message (`startConversation`). */
export interface ConversationStart {
  applicationId: string;
  title?: string;
  source?: ConversationSource;
  apiKeyId?: string | null;
  configVersionId?: string | null;
}

export interface ChatMessageRequest {
  content: string;
  provider?: string;
  model?: string;
  /** Raw settings (SPEC 2.3 names); validated by the engine. */
  settings?: Record<string, unknown>;
  /** Retrieved context or other system text added after the system prompt. */
  context?: string;
  /** The user's own provider key for this request only (never stored, never logged). */
  apiKey?: string;
  /** The owner's connection this turn runs on (its key and headers opened for this turn only; never stored or logged). */
  connection?: OpenedConnection;
  /** The owner's own keys for the providers of the settings' balance members and fallbacks, by provider id (never stored, never logged). */
  fallbackKeys?: Record<string, string>;
  /** The owner's connections the settings' balance members and fallbacks name (`connectionName/model` pairs), opened for this turn only. */
  fallbackConnections?: OpenedConnection[];
  configVersionId?: string | null;
  sources?: MessageSource[];
  /**
   * Opens the conversation with this message: it is created under the id the message is sent to (a
   * new uuid chosen by the caller) in the same call, so a first turn costs one call instead of two.
   */
  startConversation?: ConversationStart;
  /**
   * Writes the turn's events (`conversation.started` when it opens one, `message.received`,
   * `message.completed` unless the answer failed) in the statements that store the messages they name.
   */
  announce?: TurnAnnouncement;
  /** The application's enabled tools and agent settings: the turn runs the tool loop. Absent: a turn without tools. */
  tools?: TurnTools;
  /**
   * The turn's trace (docs/observability.md): the engine records its model rounds and tool calls in it. Never
   * sent as such: over HTTP it travels as a W3C `traceparent` and the AI service records its part under it.
   */
  trace?: TurnTrace;
}

export interface ChatAnswer {
  conversationId: string;
  /** The id of the user's message this turn stored (the one `message.received` names). */
  userMessageId?: string;
  message: { id: string; role: 'assistant'; content: string; createdAt: string };
  usage: TokenUsage;
  /** The provider id or connection name that answered (a fallback's, when one did). */
  provider: AnsweringProvider;
  model: string;
  latencyMs: number;
  sources?: MessageSource[];
  /** The tool calls the turn made, in order (absent when it made none). */
  toolCalls?: AnswerToolCall[];
  /** A turn with a resilience policy: which provider and model answered, and whether it was a fallback. */
  answeredBy?: AnsweredBy;
  /** Set when a limit ended the turn's tool use. */
  stoppedBy?: ToolStop;
  /** US dollars at the platform's prices, null when unknown (the owner's dashboard chat only, `answerCost`). */
  cost?: number | null;
}

export type ChatStreamEvent =
  | { type: 'chunk'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; toolCallId: string; name: string; content: string; isError: boolean; durationMs: number }
  | {
      type: 'done';
      fullResponse: string;
      conversationId: string;
      /** The id of the user's message this turn stored. */
      userMessageId?: string;
      messageId: string;
      usage: TokenUsage;
      /** The provider id or connection name that answered. */
      provider: AnsweringProvider;
      model: string;
      latencyMs: number;
      sources?: MessageSource[];
      toolCalls?: AnswerToolCall[];
      answeredBy?: AnsweredBy;
      stoppedBy?: ToolStop;
      /** US dollars at the platform's prices, null when unknown (the owner's dashboard chat only, `answerCost`). */
      cost?: number | null;
    }
  | { type: 'error'; message: string; statusCode: number };

export interface ConversationWithMessages extends ConversationView {
  messages: MessageView[];
}

export interface ProviderInfo {
  id: ProviderId;
  defaultModel: string;
  models: { id: string; maxOutputTokens: number; contextWindow: number }[];
  /** Whether the platform holds a key of its own for it. */
  platformKeyConfigured: boolean;
  acceptsAnyModel: boolean;
}

/**
 * Conversations with an LLM: in-process in the AI service (and in the core API when AI_SERVICE_URL
 * is unset), or over HTTP to the AI service. Both pass the same contract tests.
 */
export interface ChatEngine {
  providers(): Promise<ProviderInfo[]>;
  models(provider: string): Promise<ProviderInfo['models']>;
  createConversation(input: ConversationStart): Promise<ConversationView>;
  getConversation(id: string): Promise<ConversationWithMessages>;
  listConversations(applicationId: string, page: { page: number; limit: number }): Promise<{ data: ConversationView[]; total: number; page: number; limit: number }>;
  archiveConversation(id: string): Promise<void>;
  /** Sends a message and waits for the whole answer. Failures are thrown as core errors. */
  sendMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal): Promise<ChatAnswer>;
  /**
   * Streams the answer: `chunk` events as they arrive, then `done`. Validation and lookup failures are
   * thrown before the first event; a provider failure after that ends the stream with an `error` event.
   * Aborting the signal cancels the provider request and keeps the partial answer as interrupted.
   */
  streamMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>>;
}
