import type { ProviderId } from './provider-id';

/** A model the platform knows the limits of (SPEC 2.3: maxTokens is bounded by the model's own maximum). */
export interface CatalogModel {
  id: string;
  maxOutputTokens: number;
  contextWindow: number;
}

interface ProviderCatalog {
  defaultModel: string;
  models: readonly CatalogModel[];
}

const model = (id: string, maxOutputTokens: number, contextWindow: number): CatalogModel => ({ id, maxOutputTokens, contextWindow });

/**
 * provider_d serves any model of its inference service, so one bound applies to all of them; the
 * context window is generous because the real one is only known to the serving endpoint.
 */
export const OPEN_MODEL_LIMITS = { maxOutputTokens: 128_000, contextWindow: 131_072 } as const;

const openModel = (id: string): CatalogModel => model(id, OPEN_MODEL_LIMITS.maxOutputTokens, OPEN_MODEL_LIMITS.contextWindow);

const CATALOG: Record<ProviderId, ProviderCatalog> = {
  provider_a: {
    defaultModel: 'gpt-4o-mini',
    models: [
      model('gpt-4o-mini', 16_384, 128_000),
      model('gpt-4o', 16_384, 128_000),
      model('gpt-4.1', 32_768, 1_047_576),
      model('gpt-4.1-mini', 32_768, 1_047_576),
      model('gpt-4.1-nano', 32_768, 1_047_576),
      // SPEC 2.3 gives the OpenAI-class model 8K and its turbo variant 128K.
      model('gpt-4-turbo', 128_000, 128_000),
      model('gpt-4', 8_192, 8_192),
      model('gpt-3.5-turbo', 4_096, 16_385),
    ],
  },
  provider_b: {
    defaultModel: 'claude-3-5-sonnet-20241022',
    models: [
      // Newer generation: 8192 output tokens (SPEC 2.3).
      model('claude-3-5-sonnet-20241022', 8_192, 200_000),
      model('claude-3-5-sonnet-20240620', 8_192, 200_000),
      model('claude-3-5-sonnet-latest', 8_192, 200_000),
      model('claude-3-5-haiku-20241022', 8_192, 200_000),
      model('claude-3-5-haiku-latest', 8_192, 200_000),
      // Older generation: 4096 output tokens.
      model('claude-3-opus-20240229', 4_096, 200_000),
      model('claude-3-opus-latest', 4_096, 200_000),
      model('claude-3-sonnet-20240229', 4_096, 200_000),
      model('claude-3-haiku-20240307', 4_096, 200_000),
    ],
  },
  provider_c: {
    defaultModel: 'gemini-2.0-flash',
    models: [
      model('gemini-2.0-flash', 8_192, 1_048_576),
      model('gemini-2.0-flash-lite', 8_192, 1_048_576),
      model('gemini-2.5-flash', 65_536, 1_048_576),
      model('gemini-2.5-pro', 65_536, 1_048_576),
      model('gemini-1.5-pro', 8_192, 2_097_152),
      model('gemini-1.5-flash', 8_192, 1_048_576),
      model('gemini-1.5-flash-8b', 8_192, 1_048_576),
    ],
  },
  provider_d: {
    defaultModel: 'meta-llama/Llama-3.1-8B-Instruct',
    // Suggestions only: any well-formed organization/model id is accepted.
    models: [
      openModel('meta-llama/Llama-3.1-8B-Instruct'),
      openModel('meta-llama/Llama-3.3-70B-Instruct'),
      openModel('mistralai/Mistral-7B-Instruct-v0.3'),
      openModel('Qwen/Qwen2.5-72B-Instruct'),
      openModel('HuggingFaceH4/zephyr-7b-beta'),
    ],
  },
};

/** Hub repository names: letters, digits, `-`, `_`, `.`; at most 96 characters per part. */
const HUB_MODEL_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9_])?\/[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9_])?$/;

/** True for a Hugging Face model id of the form `organization/model`. */
export function isOpenModelId(modelId: string): boolean {
  return HUB_MODEL_ID.test(modelId) && !modelId.includes('..');
}

/** Whether the provider accepts models outside its catalogue (only provider_d, SPEC 2.1). */
export function acceptsAnyModel(provider: ProviderId): boolean {
  return provider === 'provider_d';
}

/** The catalogued models of a provider, default first. */
export function listCatalogModels(provider: ProviderId): readonly CatalogModel[] {
  return CATALOG[provider].models;
}

export function defaultModel(provider: ProviderId): string {
  return CATALOG[provider].defaultModel;
}

/**
 * The limits of a model the provider accepts, or undefined when it does not accept it. For provider_d
 * any well-formed `organization/model` id is found, with the open-model limits.
 */
export function findModel(provider: ProviderId, modelId: string): CatalogModel | undefined {
  const known = CATALOG[provider].models.find((m) => m.id === modelId);
  if (known) return known;
  return acceptsAnyModel(provider) && isOpenModelId(modelId) ? openModel(modelId) : undefined;
}
