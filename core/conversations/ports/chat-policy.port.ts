import type { OpenedConnection } from '../../connections/ports/connection-endpoints.port';
import type { Application } from '../../applications/domain/application';
import type { TokenUsage } from '../../ai/ports/llm-provider.port';
import type { AnswerToolCall } from '../../ai/ports/chat-engine.port';
import type { Conversation, ConversationSource, MessageSource } from '../domain/conversation';
import type { TurnTrace } from '../../traces/domain/turn-trace';

/** One turn of a conversation as the core API sees it, before the engine is called. */
export interface ChatTurn {
  /** The application's owner: whose plan, keys and quota apply (not necessarily the caller). */
  ownerId: string;
  application: Application;
  conversation: Conversation;
  content: string;
  source: ConversationSource;
  /**
   * A studio debug turn (docs/studio.md): the application's unpublished draft, which takes the place of its
   * model config and any A/B version for this turn only. `settings.systemPrompt` holds the rendered instructions.
   */
  draft?: {
    provider: string;
    model: string;
    settings: Record<string, unknown>;
    /** The draft's own retrieval settings (docs/knowledge.md); absent: the application's. */
    retrieval?: { mode: 'hybrid' | 'vector' | 'keyword' | null; topK: number; scoreThreshold: number | null; rerank: boolean };
  };
  /** The turn's trace, started by the tracing policy (the first one) when tracing is on: policies add spans to it. */
  trace?: TurnTrace;
  /** `evaluation`: a turn an evaluation run asks (docs/evaluations.md), not end-user traffic: analytics does not count it. */
  purpose?: 'evaluation';
}

/** What the engine will be asked; each policy fills in its part. */
export interface ChatPlan {
  provider?: string;
  model?: string;
  settings: Record<string, unknown>;
  /** Extra system text (retrieved context), after the configured system prompt. */
  context?: string;
  /** The decrypted own key for this one request, if the owner has one for the provider. */
  apiKey?: string;
  configVersionId?: string | null;
  sources?: MessageSource[];
  /** Set by the policy that chose the key, for settlement. */
  usesOwnKey?: boolean;
  /** The owner's connection the turn runs on (its provider names it), opened for this turn only (docs/connections.md). */
  connection?: OpenedConnection;
  /** The owner's connections the settings' balance members and fallbacks name, opened for this turn only (docs/connections.md). */
  fallbackConnections?: OpenedConnection[];
}

export interface ChatOutcome {
  ok: boolean;
  /** The client went away mid-stream; `usage` is then an estimate of what was produced. */
  interrupted?: boolean;
  usage?: TokenUsage;
  latencyMs?: number;
  provider?: string;
  model?: string;
  /** The answer's text (partial when interrupted), for policies that read it (plugins' afterReceive). */
  content?: string;
  /** The tool calls the turn made (docs/tools.md), for analytics. */
  toolCalls?: AnswerToolCall[];
  /** The assistant message the turn stored (what its trace is keyed to). */
  messageId?: string;
  /**
   * Why a failed turn failed, when it failed by an error (a later policy's refusal, the engine's or the
   * provider's error); absent when the answer itself ended badly (stored as failed or interrupted).
   */
  error?: unknown;
}

/**
 * A step around every chat turn (model config, keys and quota, retrieval): `prepare` runs in order
 * before the engine call and may refuse it by throwing; `settle` runs after it, whatever the outcome.
 */
export interface ChatPolicy {
  readonly name: string;
  /** At conversation creation: for example the A/B version assigned for the conversation's life. */
  onConversationCreate?(application: Application): Promise<{ configVersionId?: string | null }>;
  prepare(turn: ChatTurn, plan: ChatPlan): Promise<void>;
  /**
   * For a turn that runs the tool loop (docs/tools.md), once `prepare` admitted it: how many of the `rounds` tool
   * rounds the turn may run (each further model round is another call to count, such as against the quota). The
   * fewest any policy allows is the turn's `maxToolRounds`; 0 still answers, in one round without tools.
   */
  allowToolRounds?(turn: ChatTurn, plan: ChatPlan, rounds: number): Promise<number>;
  settle?(turn: ChatTurn, plan: ChatPlan, outcome: ChatOutcome): Promise<void>;
}
