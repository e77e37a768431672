import { PROVIDER_IDS, type ProviderId } from '../../core/ai/domain/provider-id';
import type { LlmProvider, LlmProviderRegistry } from '../../core/ai/ports/llm-provider.port';
import { ValidationError } from '../../core/shared/errors';
import { AnthropicLlmProvider } from './anthropic-llm.provider';
import { GeminiLlmProvider } from './gemini-llm.provider';
import { HuggingFaceLlmProvider } from './hugging-face-llm.provider';
import { OpenAiLlmProvider } from './openai-llm.provider';
import type { ProviderOptions } from './provider-call';

/** Adding a provider is one adapter and one line here (STYLE.md 4). */
const FACTORIES: Record<ProviderId, (options: ProviderOptions) => LlmProvider> = {
  provider_a: (options) => new OpenAiLlmProvider(options),
  provider_b: (options) => new AnthropicLlmProvider(options),
  provider_c: (options) => new GeminiLlmProvider(options),
  provider_d: (options) => new HuggingFaceLlmProvider(options),
};

export interface LlmProviderRegistryOptions {
  /** PROVIDER_X_BASE_URL per provider; unset ones use the provider's public API. */
  baseUrls: Partial<Record<ProviderId, string>>;
  /** PROVIDER_X_API_KEY per provider (the platform's keys, for paid plans). */
  platformKeys: Partial<Record<ProviderId, string>>;
  timeoutMs: number;
}

/**
 * The keys of PROVIDER_X_API_KEY: several may be given, comma-separated, and resilient turns balance them
 * (round robin, each behind its own circuit breaker; docs/connections.md). A plain turn uses the first.
 */
export const splitKeys = (value: string | undefined): string[] => (value ?? '').split(',').map((k) => k.trim()).filter(Boolean);

export function createLlmProviderRegistry(options: LlmProviderRegistryOptions): LlmProviderRegistry {
  const providers = new Map<ProviderId, LlmProvider>(
    PROVIDER_IDS.map((id) => [id, FACTORIES[id]({ baseUrl: options.baseUrls[id] || undefined, timeoutMs: options.timeoutMs })]),
  );
  const keys = new Map<ProviderId, string[]>(PROVIDER_IDS.map((id) => [id, splitKeys(options.platformKeys[id])]));
  return {
    get(id) {
      const provider = providers.get(id);
      if (!provider) throw ValidationError.field('provider', `provider must be one of ${PROVIDER_IDS.join(', ')}`);
      return provider;
    },
    platformKey: (id) => keys.get(id)?.[0],
    platformKeys: (id) => keys.get(id) ?? [],
  };
}
