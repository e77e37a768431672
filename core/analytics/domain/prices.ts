import { catalogPrices, type ModelPrice, type PriceTable } from '../../ai/domain/model-catalog';
import { PROVIDER_IDS } from '../../ai/domain/provider-id';

/** Why an operator's price file was refused: the field (e.g. `provider_a.gpt-4o.inputPerMillion`) and the rule. */
export class PriceSettingsError extends Error {}

const MAX_MODEL_ID = 200;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The catalogue's prices with an operator's over them (MODEL_PRICES_FILE): a JSON object keyed by
 * provider, then model id, each `{ "inputPerMillion": <USD>, "outputPerMillion": <USD> }`. A model
 * given replaces its catalogue price whole; others keep theirs; models outside the catalogue (an open
 * model of provider_d) may be priced too.
 */
export function applyPriceOverrides(settings: unknown, base: PriceTable = catalogPrices()): PriceTable {
  if (!isRecord(settings)) throw new PriceSettingsError('the prices must be a JSON object keyed by provider');
  const table: PriceTable = {};
  for (const [provider, models] of Object.entries(base)) table[provider] = { ...models };
  for (const provider of Object.keys(settings)) {
    if (!(PROVIDER_IDS as readonly string[]).includes(provider)) {
      throw new PriceSettingsError(`${provider} is not a provider (${PROVIDER_IDS.join(', ')})`);
    }
    const models = settings[provider];
    if (!isRecord(models)) throw new PriceSettingsError(`${provider} must be an object keyed by model id`);
    for (const model of Object.keys(models)) {
      if (model === '' || model.length > MAX_MODEL_ID) throw new PriceSettingsError(`${provider}: a model id must have 1 to ${MAX_MODEL_ID} characters`);
      table[provider] ??= {};
      table[provider][model] = modelPrice(`${provider}.${model}`, models[model]);
    }
  }
  return table;
}

function modelPrice(path: string, value: unknown): ModelPrice {
  if (!isRecord(value)) throw new PriceSettingsError(`${path} must be an object with inputPerMillion and outputPerMillion`);
  const field = (name: 'inputPerMillion' | 'outputPerMillion'): number => {
    const v = Object.hasOwn(value, name) ? value[name] : undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new PriceSettingsError(`${path}.${name} must be a number of US dollars, 0 or more`);
    return v;
  };
  return { inputPerMillion: field('inputPerMillion'), outputPerMillion: field('outputPerMillion') };
}

/** The price of a provider's model, if the table has one. */
export function priceOf(table: PriceTable, provider: string, model: string): ModelPrice | undefined {
  const models = Object.hasOwn(table, provider) ? table[provider] : undefined;
  return models && Object.hasOwn(models, model) ? models[model] : undefined;
}

/** US dollars for these tokens at this price (unrounded: sums are rounded once, at the end). */
export function costOf(price: ModelPrice, promptTokens: number, completionTokens: number): number {
  return (promptTokens * price.inputPerMillion + completionTokens * price.outputPerMillion) / 1_000_000;
}

/** Dollars to a billionth: a single short answer of a cheap model costs a few millionths. */
export const roundUsd = (usd: number): number => Math.round(usd * 1e9) / 1e9;
