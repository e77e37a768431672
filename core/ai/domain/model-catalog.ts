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
  // A connection's name (docs/connections.md) is no catalogued provider: its models' limits are unknown.
  const known = CATALOG[provider]?.models.find((m) => m.id === modelId);
  if (known) return known;
  return acceptsAnyModel(provider) && isOpenModelId(modelId) ? openModel(modelId) : undefined;
}

/** What a model costs: US dollars per million prompt (input) and completion (output) tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * The date the catalogue's list prices were taken from the providers' public price pages. Estimates
 * only: providers change prices, discount cached or batched input and bill some models by tier; an
 * operator can replace any of them (MODEL_PRICES_FILE).
 */
export const MODEL_PRICES_AS_OF = '2025-06-01';

const price = (inputPerMillion: number, outputPerMillion: number): ModelPrice => ({ inputPerMillion, outputPerMillion });

/**
 * List prices of the catalogued models. provider_d's open models have none: what they cost depends on
 * where they are served, so their tokens are counted as unpriced until an operator prices them.
 */
const CATALOG_PRICES: Partial<Record<ProviderId, Record<string, ModelPrice>>> = {
  provider_a: {
    'gpt-4o-mini': price(0.15, 0.6),
    'gpt-4o': price(2.5, 10),
    'gpt-4.1': price(2, 8),
    'gpt-4.1-mini': price(0.4, 1.6),
    'gpt-4.1-nano': price(0.1, 0.4),
    'gpt-4-turbo': price(10, 30),
    'gpt-4': price(30, 60),
    'gpt-3.5-turbo': price(0.5, 1.5),
  },
  provider_b: {
    'claude-3-5-sonnet-20241022': price(3, 15),
    'claude-3-5-sonnet-20240620': price(3, 15),
    'claude-3-5-sonnet-latest': price(3, 15),
    'claude-3-5-haiku-20241022': price(0.8, 4),
    'claude-3-5-haiku-latest': price(0.8, 4),
    'claude-3-opus-20240229': price(15, 75),
    'claude-3-opus-latest': price(15, 75),
    'claude-3-sonnet-20240229': price(3, 15),
    'claude-3-haiku-20240307': price(0.25, 1.25),
  },
  provider_c: {
    'gemini-2.0-flash': price(0.1, 0.4),
    'gemini-2.0-flash-lite': price(0.075, 0.3),
    'gemini-2.5-flash': price(0.3, 2.5),
    'gemini-2.5-pro': price(1.25, 10),
    'gemini-1.5-pro': price(1.25, 5),
    'gemini-1.5-flash': price(0.075, 0.3),
    'gemini-1.5-flash-8b': price(0.0375, 0.15),
  },
};

/** Prices by provider, then model id. */
export type PriceTable = Record<string, Record<string, ModelPrice>>;

/** A copy of the catalogue's price table, for an operator's prices to be laid over. */
export function catalogPrices(): PriceTable {
  const table: PriceTable = {};
  for (const [provider, models] of Object.entries(CATALOG_PRICES)) table[provider] = { ...models };
  return table;
}
