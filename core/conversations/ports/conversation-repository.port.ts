import type { AnswerMetadata } from '../../ai/domain/resilience';
import type { ToolCall, TokenUsage } from '../../ai/ports/llm-provider.port';
import type { Conversation, ConversationSource, Message, MessageRole, MessageSource, MessageStatus, MessageToolCall } from '../domain/conversation';

export interface NewConversation {
  /** The id to store it under (a new uuid); one is made when missing. */
  id?: string;
  applicationId: string;
  title: string;
  source: ConversationSource;
  apiKeyId?: string | null;
  configVersionId?: string | null;
}

export interface NewMessage {
  conversationId: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  provider?: string | null;
  model?: string | null;
  usage?: TokenUsage | null;
  latencyMs?: number | null;
  error?: string | null;
  configVersionId?: string | null;
  sources?: MessageSource[] | null;
  /** An assistant message that called tools: the calls. */
  toolCalls?: MessageToolCall[] | null;
  /** A `tool` message: the call it answers, the tool, whether it is an error. */
  toolCallId?: string | null;
  toolName?: string | null;
  isError?: boolean | null;
  /** An answer's: who answered (a fallback?), each provider attempt, whether the usage is an estimate. */
  metadata?: AnswerMetadata | null;
  /** Writes the answer's `message.completed` (a complete or interrupted answer) in the statement that stores it. */
  announce?: TurnAnnouncement;
}

/**
 * Whose turn it is, for its domain events (EVENTS.md): a turn that carries one writes its events to the
 * outbox in the same statement as the messages they name, so a crash can lose neither without the other.
 */
export interface TurnAnnouncement {
  /** The application's owner, whose webhooks and plugins hear of the turn. */
  ownerId: string;
  /** Where the turn came from (`message.received`'s and `conversation.started`'s `source`). */
  source: ConversationSource;
}

/** A message of the history a prompt is built from. */
export interface Turn {
  role: MessageRole;
  content: string;
  /** An assistant turn that called tools (arguments as JSON text, as the providers take them back). */
  toolCalls?: ToolCall[];
  /** A `tool` turn: the call it answers, the tool's name, whether it is an error. */
  toolCallId?: string;
  name?: string;
  isError?: boolean;
}

export interface BegunTurn {
  conversation: Conversation;
  /**
   * The history a prompt needs, oldest first, before the message just stored: role and text of the
   * latest messages that have text (failed answers left out), at most `limit` of them and about
   * `maxChars` characters in all. Empty for an archived conversation.
   */
  history: Turn[];
  /** The id of the user's message the turn stored (absent when nothing was stored: an archived conversation). */
  messageId?: string;
}

/** Conversations and their messages. */
export interface ConversationRepository {
  create(conversation: NewConversation): Promise<Conversation>;
  findById(id: string): Promise<Conversation | null>;
  /** The conversation together with its application's owner, for ownership checks in one query. */
  findWithOwner(id: string): Promise<{ conversation: Conversation; ownerId: string } | null>;
  /**
   * As `findWithOwner`, for starting a chat turn: may answer from a cache, so `title`, `updatedAt` and
   * `status` can lag behind (the engine refuses an archived conversation itself when it opens the turn).
   */
  findForTurn(id: string): Promise<{ conversation: Conversation; ownerId: string } | null>;
  listByApplication(applicationId: string, offset: number, limit: number): Promise<{ items: Conversation[]; total: number }>;
  /** The conversations of the applications `ownerId` may see (theirs and their teams', or one team's / only theirs with `teamId`). */
  listByOwner(ownerId: string, filter: { applicationId?: string; teamId?: string | null }, offset: number, limit: number): Promise<{ items: Conversation[]; total: number }>;
  archive(id: string): Promise<void>;
  /** Appends a message and touches the conversation's `updated_at`. */
  addMessage(message: NewMessage): Promise<Message>;
  /**
   * Starts a turn in one step: the conversation (null when there is none) and, unless it is archived,
   * the user's message stored (touching `updated_at`) with the history that came before it, and with
   * `announce` its `message.received` event.
   */
  beginTurn(conversationId: string, content: string, limit: number, maxChars: number, announce?: TurnAnnouncement, title?: UntitledRename): Promise<BegunTurn | null>;
  /**
   * `beginTurn` for a conversation its first message opens: creates it with that (user) message in one
   * step, or neither. Fails as `create` does (unknown application, taken id); the history is empty.
   * With `announce`, both write their events (`conversation.started`, then `message.received`) in that step.
   */
  beginFirstTurn(conversation: NewConversation, content: string, announce?: TurnAnnouncement): Promise<BegunTurn>;
  messages(conversationId: string): Promise<Message[]>;
  /** Sets a conversation's title (touching `updated_at`); false when there is no such conversation. */
  rename(id: string, title: string): Promise<boolean>;
}

/**
 * The title a turn gives its conversation if the conversation is still untitled: it holds no message yet
 * and its title is `untitled` (what a conversation created without a title carries). Applied in the
 * statement that stores the turn's message, so the first message names the conversation exactly once.
 */
export interface UntitledRename {
  untitled: string;
  title: string;
}
