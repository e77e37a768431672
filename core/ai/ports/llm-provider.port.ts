import type { ProviderId } from '../domain/provider-id';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** Settings after validation and defaults (SPEC 2.3); a provider drops what it does not support. */
export interface ModelSettings {
  temperature: number;
  maxTokens: number;
  topP: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  systemPrompt?: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
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
}

export interface ChatResult {
  content: string;
  usage: TokenUsage;
  /** The model id the provider says answered. */
  model: string;
}

export type StreamPart = { type: 'delta'; text: string } | { type: 'usage'; usage: TokenUsage };

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
}
