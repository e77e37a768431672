import type { ProviderId } from '../domain/provider-id';
import type { SpanHandle } from '../../traces/domain/turn-trace';
import type { ResiliencePolicy } from '../domain/resilience';

export interface ChatTurn {
  /** `tool` turns carry a tool's result back to the model (docs/tools.md). */
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant turn that called tools: the calls, in the order the model made them. */
  toolCalls?: ToolCall[];
  /** A tool turn: the call it answers, the tool's name, and whether the content is an error. */
  toolCallId?: string;
  name?: string;
  isError?: boolean;
  /** A tool turn: how long the call took (ms), kept for analytics; never sent to a provider. */
  durationMs?: number;
}

/** A function the model may call: its name, what it does, and the JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model made; `arguments` is the JSON text as the model wrote it (untrusted: parsed and checked by the caller). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Which tool use a request asks for: the providers' common ground. */
export type ToolChoiceSpec = 'auto' | 'none' | 'required' | { name: string };

/** Settings after validation and defaults (SPEC 2.3); a provider drops what it does not support. */
export interface ModelSettings {
  temperature: number;
  maxTokens: number;
  topP: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  systemPrompt?: string;
  /** Retries and fallbacks when the provider has a bad day (docs/connections.md); providers ignore it. */
  resilience?: ResiliencePolicy;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Set when the provider reported no usage and these counts are the platform's estimate. */
  estimated?: true;
}

export interface ChatRequest {
  model: string;
  /** Conversation history, oldest first, ending with the user's new message. */
  messages: ChatTurn[];
  /** System instruction (settings.systemPrompt, a template, retrieved context), if any. */
  system?: string;
  settings: ModelSettings;
  /** The decrypted key for this one request (the user's own or the platform's). Never stored or logged. */
  apiKey: string;
  /** Aborts the provider request (client went away, or timeout). */
  signal?: AbortSignal;
  /** Functions the model may call; none (or empty) is a request without tools. */
  tools?: ToolSpec[];
  toolChoice?: ToolChoiceSpec;
  /** False asks the model for one call at a time (where the provider supports saying so). */
  parallelToolCalls?: boolean;
  /** The model round's span in the turn's trace (docs/observability.md): what runs beneath it (retries, fallbacks) may add spans under it. */
  span?: SpanHandle;
}

export interface ChatResult {
  content: string;
  usage: TokenUsage;
  /** The model id the provider says answered. */
  model: string;
  /** Calls the model asked for instead of (or beside) an answer. */
  toolCalls?: ToolCall[];
}

/** A `tool_call` part is a whole call, assembled from the provider's streamed pieces before it is yielded. */
export type StreamPart = { type: 'delta'; text: string } | { type: 'usage'; usage: TokenUsage } | { type: 'tool_call'; call: ToolCall };

/**
 * One AI provider behind its official SDK. Failures are thrown as core errors: a refused key as
 * UpstreamError(424) from `providerKeyRejected`, a bad request as UpstreamError(400), other provider failures as
 * UpstreamError(502) naming the provider; an aborted request rethrows the signal's abort reason.
 */
export interface LlmProvider {
  readonly id: ProviderId;
  chat(request: ChatRequest): Promise<ChatResult>;
  /** Yields text deltas as they arrive, and one `usage` part when the provider reports it. */
  stream(request: ChatRequest): AsyncIterable<StreamPart>;
  /** Live model listing, used to validate a key. */
  listModels(apiKey: string, signal?: AbortSignal): Promise<string[]>;
}

/** Providers by id (STYLE.md 4): adding a provider is one adapter and one registration. */
export interface LlmProviderRegistry {
  get(id: ProviderId): LlmProvider;
  /** The platform's own key for a provider (PROVIDER_X_API_KEY), if configured. */
  platformKey(id: ProviderId): string | undefined;
  /** Every platform key of a provider (PROVIDER_X_API_KEY may list several, comma-separated): balanced by resilient turns. */
  platformKeys?(id: ProviderId): string[];
}
