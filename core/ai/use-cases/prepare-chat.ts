import { isProviderKeyRejection, UnavailableError, ValidationError, NotFoundError } from '../../shared/errors';
import { platformKeyRejected } from '../domain/provider-key-rejection';
import { isUuid } from '../../shared/ids';
import type { Clock } from '../../shared/clock.port';
import { titleFrom, UNTITLED, type Conversation } from '../../conversations/domain/conversation';
import type { BegunTurn, ConversationRepository, NewConversation } from '../../conversations/ports/conversation-repository.port';
import { findModel } from '../domain/model-catalog';
import { resolveConnectionSettings, resolveModelSettings } from '../domain/model-settings';
import { fitHistory, withoutToolTurns } from '../domain/history';
import type { ProviderId } from '../domain/provider-id';
import type { ChatMessageRequest } from '../ports/chat-engine.port';
import type { ChatRequest, LlmProvider, LlmProviderRegistry, ModelSettings } from '../ports/llm-provider.port';
import { estimateTokens } from '../../shared/tokens';
import type { JsonSchemaChecker } from '../../tools/ports/json-schema.port';
import type { ResilienceRuntime, ResilientLlmProvider } from './resilient-llm-provider';
import { connectionProvider, NO_KEY, providerForTurn } from './turn-routes';
import type { ConnectionEndpoints } from '../../connections/ports/connection-endpoints.port';
import type { ToolRunnerRegistry } from '../../tools/ports/tool-runner.port';
import type { TurnTrace } from '../../traces/domain/turn-trace';
import { tracedProvider } from '../../traces/use-cases/traced-chat';

/** What runs a turn's tool calls where the engine runs (docs/tools.md): the schema checker and the runners by source. */
export interface ToolRuntime {
  schemas: JsonSchemaChecker;
  runners: ToolRunnerRegistry;
}

export interface ChatEngineDeps {
  conversations: ConversationRepository;
  providers: LlmProviderRegistry;
  clock: Clock;
  /** Provider used when a request names none. */
  defaultProvider?: ProviderId;
  /** Runs tool calls for requests that carry tools; without it such a turn's calls answer that the tool cannot run here. */
  tools?: ToolRuntime;
  /** Breakers and key balancing shared by the process's resilient turns (docs/connections.md); a default one otherwise. */
  resilience?: ResilienceRuntime;
  /** Speaks to owners' connections (docs/connections.md); without it a turn on a connection is refused. */
  connections?: Pick<ConnectionEndpoints, 'provider'>;
}

export interface PreparedChat {
  conversation: Conversation;
  /** The id of the user's message the turn stored. */
  userMessageId?: string;
  provider: LlmProvider;
  providerId: ProviderId;
  model: string;
  request: ChatRequest;
  /** The turn runs on the platform's key (PROVIDER_X_API_KEY), not on one its caller supplied. */
  usesPlatformKey: boolean;
  /** The turn's trace, when it is traced: its model rounds (through `provider`) and tool calls are spans of it. */
  trace?: TurnTrace;
  /** Set when the turn's settings carry a resilience policy: who answered, and every attempt. */
  resilient?: ResilientLlmProvider;
}

const MAX_CONTENT = 100_000;
/** How many stored messages are read back as history before trimming to the context window. */
const HISTORY_LIMIT = 100;

/**
 * Everything before the provider call: validates the request, finds the conversation (first creating
 * it, for a message that opens one: `opening`), stores the user's message (kept whatever happens next)
 * and builds the provider request from the history.
 */
export async function prepareChat(deps: ChatEngineDeps, conversationId: string, input: ChatMessageRequest, opening?: NewConversation): Promise<PreparedChat> {
  if (typeof input?.content !== 'string' || input.content.trim() === '') throw ValidationError.field('content', 'content is required');
  if (input.content.length > MAX_CONTENT) throw ValidationError.field('content', `content must be at most ${MAX_CONTENT} characters`);
  // A turn on an owner's connection (docs/connections.md) names it as its provider; its key is its own.
  const { provider: providerId, model, settings } = input.connection
    ? (resolveConnectionSettings(input.connection, input.model, input.settings ?? {}) as { provider: ProviderId; model: string; settings: ModelSettings })
    : resolveModelSettings(input.provider ?? deps.defaultProvider ?? 'provider_a', input.model, input.settings ?? {});
  const apiKey = input.connection ? (input.connection.apiKey ?? NO_KEY) : (input.apiKey ?? deps.providers.platformKey(providerId));
  if (!apiKey) throw new UnavailableError(`No API key is configured for ${providerId}; save your own key for it`);

  const system = [settings.systemPrompt, input.context].filter((s): s is string => !!s && s.trim() !== '').join('\n\n') || undefined;
  const contextWindow = findModel(providerId, model)?.contextWindow ?? 8192;
  const budget = Math.max(256, contextWindow - settings.maxTokens - estimateTokens(system ?? '') - 64);
  // Finding the conversation, storing the user's message and reading the history are one statement; a
  // message that opens its conversation creates it in that statement, once the request is known to be
  // valid, so a refused message opens nothing.
  let begun: BegunTurn | null = null;
  // With `announce`, the turn's events are written in the same statements as the messages they name.
  if (opening) begun = await deps.conversations.beginFirstTurn(opening, input.content, input.announce);
  // A conversation created without a title takes it from its first message, whatever the channel.
  else if (isUuid(conversationId)) {
    begun = await deps.conversations.beginTurn(conversationId, input.content, HISTORY_LIMIT, budget * 4, input.announce, { untitled: UNTITLED, title: titleFrom(input.content) });
  }
  if (!begun) throw new NotFoundError('Conversation');
  const { conversation, history } = begun;
  if (conversation.status === 'archived') throw ValidationError.field('conversationId', 'The conversation is archived');
  // Without tools on this turn, earlier calls and results are left out: providers refuse them without tool definitions.
  const past = input.tools?.tools.length ? history : withoutToolTurns(history);
  const turns = fitHistory([...past, { role: 'user' as const, content: input.content }], budget);
  const routed = providerForTurn(deps, { providerId, model, settings, ownKey: input.connection ? apiKey : input.apiKey, base: input.connection ? connectionProvider(deps, input.connection) : undefined, scope: input.connection?.id, fallbackKeys: input.fallbackKeys, ...(input.fallbackConnections ? { fallbackConnections: input.fallbackConnections } : {}), budgetMs: input.tools?.settings.timeBudgetMs }, apiKey);
  return {
    conversation,
    ...(begun.messageId ? { userMessageId: begun.messageId } : {}),
    provider: input.trace ? tracedProvider(routed.provider, input.trace) : routed.provider,
    ...(routed.resilient ? { resilient: routed.resilient } : {}),
    providerId,
    model,
    request: { model, messages: turns, system, settings, apiKey },
    usesPlatformKey: input.apiKey === undefined && !input.connection,
    ...(input.trace ? { trace: input.trace } : {}),
  };
}

/** A refused platform key is no fault of the caller's and must not show its hint: see `platformKeyRejected`. */
export function blameTheRightKey(chat: PreparedChat, error: unknown): unknown {
  return chat.usesPlatformKey && isProviderKeyRejection(error) ? platformKeyRejected(chat.providerId) : error;
}
