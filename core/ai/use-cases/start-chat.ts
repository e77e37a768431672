import { UnavailableError, ValidationError, NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Clock } from '../../shared/clock.port';
import type { Conversation } from '../../conversations/domain/conversation';
import type { ConversationRepository, NewConversation } from '../../conversations/ports/conversation-repository.port';
import { findModel } from '../domain/model-catalog';
import { resolveModelSettings } from '../domain/model-settings';
import { fitHistory } from '../domain/history';
import type { ProviderId } from '../domain/provider-id';
import type { ChatMessageRequest } from '../ports/chat-engine.port';
import type { ChatRequest, ChatTurn, LlmProvider, LlmProviderRegistry } from '../ports/llm-provider.port';
import { estimateTokens } from '../../shared/tokens';

export interface ChatEngineDeps {
  conversations: ConversationRepository;
  providers: LlmProviderRegistry;
  clock: Clock;
  /** Provider used when a request names none. */
  defaultProvider?: ProviderId;
}

/** A turn whose provider call has started: the call's handle (`T`) and what it was started with. */
export interface StartedChat<T> {
  conversation: Conversation;
  providerId: ProviderId;
  model: string;
  request: ChatRequest;
  call: T;
  /** `performance.now()` when the provider was asked. */
  startedAt: number;
}

/** A request that passed validation, before anything is stored. */
interface PlannedChat {
  providerId: ProviderId;
  model: string;
  request: Omit<ChatRequest, 'messages' | 'signal'>;
  /** Tokens the history and the new message may take. */
  budget: number;
}

const MAX_CONTENT = 100_000;
/** How many stored messages are read back as history before trimming to the context window. */
const HISTORY_LIMIT = 100;

/**
 * Everything up to the provider call: validates the request, finds the conversation (first creating
 * it, for a message that opens one: `opening`), stores the user's message (kept whatever happens next),
 * builds the provider request from the history and starts the call with `start`.
 *
 * The statement that stores the message and reads the history is a database round trip, so when this
 * process already holds the conversation's history (`knownHistory`), the provider is asked at once on
 * that history, while the statement runs. The statement has the last word: if the history it finds
 * differs (another process wrote to the conversation meanwhile), the early call is cancelled and made
 * again on the right history; if the turn cannot start (no such conversation, archived, an id taken),
 * it is cancelled and the turn fails as it always did. `start` must not consume its call, only begin
 * it: nothing from an early call reaches anyone before the statement has confirmed it.
 */
export async function startChat<T>(
  deps: ChatEngineDeps,
  conversationId: string,
  input: ChatMessageRequest,
  start: (provider: LlmProvider, request: ChatRequest) => T,
  signal?: AbortSignal,
  opening?: NewConversation,
): Promise<StartedChat<T>> {
  const plan = planChat(deps, input);
  const provider = deps.providers.get(plan.providerId);
  const launch = (messages: ChatTurn[]) => {
    const own = new AbortController();
    const request: ChatRequest = { ...plan.request, messages, signal: signal ? AbortSignal.any([signal, own.signal]) : own.signal };
    return { request, startedAt: performance.now(), call: start(provider, request), cancel: () => own.abort(new Error('superseded by the stored history')) };
  };
  // A conversation opened by this message has no history yet; otherwise, what this process holds.
  const known = opening ? [] : deps.conversations.knownHistory(conversationId, HISTORY_LIMIT, plan.budget * 4);
  const early = known && launch(promptOf(known, input.content, plan.budget));
  // The provider first: its request is on its way while the statement is sent and runs.
  const opened = openTurn(deps, conversationId, input.content, plan.budget, opening);
  let turn: Awaited<typeof opened>;
  try {
    turn = await opened;
  } catch (error) {
    early?.cancel();
    throw error;
  }
  const messages = promptOf(turn.history, input.content, plan.budget);
  let used = early;
  if (!used || !samePrompt(used.request.messages, messages)) {
    early?.cancel();
    used = launch(messages);
  }
  return { conversation: turn.conversation, providerId: plan.providerId, model: plan.model, request: used.request, call: used.call, startedAt: used.startedAt };
}

/** Validation and settings: nothing stored, nothing asked. */
function planChat(deps: ChatEngineDeps, input: ChatMessageRequest): PlannedChat {
  if (typeof input?.content !== 'string' || input.content.trim() === '') throw ValidationError.field('content', 'content is required');
  if (input.content.length > MAX_CONTENT) throw ValidationError.field('content', `content must be at most ${MAX_CONTENT} characters`);
  const { provider: providerId, model, settings } = resolveModelSettings(
    input.provider ?? deps.defaultProvider ?? 'provider_a',
    input.model,
    input.settings ?? {},
  );
  const apiKey = input.apiKey ?? deps.providers.platformKey(providerId);
  if (!apiKey) throw new UnavailableError(`No API key is configured for ${providerId}; save your own key for it`);

  const system = [settings.systemPrompt, input.context].filter((s): s is string => !!s && s.trim() !== '').join('\n\n') || undefined;
  const contextWindow = findModel(providerId, model)?.contextWindow ?? 8192;
  const budget = Math.max(256, contextWindow - settings.maxTokens - estimateTokens(system ?? '') - 64);
  return { providerId, model, request: { model, system, settings, apiKey }, budget };
}

/** Creates the conversation a first message opens, then stores the user's message and reads the history before it. */
async function openTurn(deps: ChatEngineDeps, conversationId: string, content: string, budget: number, opening?: NewConversation) {
  // A refused message opens nothing: the conversation is created once the request is known to be valid.
  if (opening) await deps.conversations.create(opening);
  // Finding the conversation, storing the user's message and reading the history are one statement.
  const begun = isUuid(conversationId) ? await deps.conversations.beginTurn(conversationId, content, HISTORY_LIMIT, budget * 4) : null;
  if (!begun) throw new NotFoundError('Conversation');
  if (begun.conversation.status === 'archived') throw ValidationError.field('conversationId', 'The conversation is archived');
  return begun;
}

function promptOf(history: ChatTurn[], content: string, budget: number): ChatTurn[] {
  return fitHistory([...history, { role: 'user', content }], budget);
}

function samePrompt(a: ChatTurn[], b: ChatTurn[]): boolean {
  return a.length === b.length && a.every((turn, i) => turn.role === b[i]!.role && turn.content === b[i]!.content);
}
