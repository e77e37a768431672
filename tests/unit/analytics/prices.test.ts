import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../apps/shared/config';
import { catalogPrices, listCatalogModels, MODEL_PRICES_AS_OF } from '../../../core/ai/domain/model-catalog';
import { applyPriceOverrides, costOf, priceOf, PriceSettingsError } from '../../../core/analytics/domain/prices';

const dir = mkdtempSync(join(tmpdir(), 'prices-file-'));
let files = 0;
const withPrices = (content: unknown) => {
  const path = join(dir, `prices-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return loadConfig({ DATA_DIR: dir, MODEL_PRICES_FILE: path });
};
const refusal = (content: unknown): string => {
  try {
    withPrices(content);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the prices file to be refused');
};

describe('the model price table', () => {
  it('prices every catalogued model of the first three providers, dated', () => {
    expect(MODEL_PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const table = catalogPrices();
    for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
      for (const model of listCatalogModels(provider)) expect(priceOf(table, provider, model.id)).toEqual({ inputPerMillion: expect.any(Number), outputPerMillion: expect.any(Number) });
    }
    // Open models are priced where they are served: unpriced until an operator says.
    expect(priceOf(table, 'provider_d', 'meta-llama/Llama-3.1-8B-Instruct')).toBeUndefined();
  });

  it('computes a cost per million tokens, input and output apart', () => {
    expect(costOf({ inputPerMillion: 2.5, outputPerMillion: 10 }, 1_000_000, 500_000)).toBeCloseTo(7.5, 9);
    expect(costOf({ inputPerMillion: 0.15, outputPerMillion: 0.6 }, 12, 30)).toBeCloseTo((12 * 0.15 + 30 * 0.6) / 1e6, 12);
  });

  it('lays an operator\'s prices over the catalogue: a given model replaced, others kept, open models priced', () => {
    const config = withPrices({ provider_a: { 'gpt-4o': { inputPerMillion: 1, outputPerMillion: 2 } }, provider_d: { 'org/model': { inputPerMillion: 0.2, outputPerMillion: 0.2 } } });
    expect(priceOf(config.modelPrices, 'provider_a', 'gpt-4o')).toEqual({ inputPerMillion: 1, outputPerMillion: 2 });
    expect(priceOf(config.modelPrices, 'provider_a', 'gpt-4o-mini')).toEqual(catalogPrices().provider_a!['gpt-4o-mini']);
    expect(priceOf(config.modelPrices, 'provider_d', 'org/model')).toEqual({ inputPerMillion: 0.2, outputPerMillion: 0.2 });
    expect(loadConfig({ DATA_DIR: dir }).modelPrices).toEqual(catalogPrices());
  });

  it('refuses a bad file with one line naming the field', () => {
    expect(refusal('{ nope')).toMatch(/^MODEL_PRICES_FILE is not valid JSON/);
    expect(refusal([])).toBe('MODEL_PRICES_FILE: the prices must be a JSON object keyed by provider');
    expect(refusal({ provider_x: {} })).toMatch(/^MODEL_PRICES_FILE: provider_x is not a provider/);
    expect(refusal({ provider_a: { 'gpt-4o': { inputPerMillion: -1, outputPerMillion: 1 } } })).toBe(
      'MODEL_PRICES_FILE: provider_a.gpt-4o.inputPerMillion must be a number of US dollars, 0 or more',
    );
    expect(refusal({ provider_a: { 'gpt-4o': { inputPerMillion: '1', outputPerMillion: 1 } } })).toMatch(/inputPerMillion must be a number/);
    expect(refusal({ provider_a: { 'gpt-4o': { inputPerMillion: 1 } } })).toMatch(/outputPerMillion must be a number/);
    expect(() => loadConfig({ DATA_DIR: dir, MODEL_PRICES_FILE: join(dir, 'missing.json') })).toThrow('MODEL_PRICES_FILE cannot be read (no such file)');
    expect(() => applyPriceOverrides({ provider_a: { '': { inputPerMillion: 1, outputPerMillion: 1 } } })).toThrow(PriceSettingsError);
  });

  it('takes a METRICS_TOKEN of 16 characters or more, and an ANALYTICS_FLUSH_MS that is a positive whole number', () => {
    expect(loadConfig({ DATA_DIR: dir }).metricsToken).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'x'.repeat(16) }).metricsToken).toBe('x'.repeat(16));
    expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters without spaces');
    expect(loadConfig({ DATA_DIR: dir }).analyticsFlushMs).toBe(5000);
    expect(() => loadConfig({ DATA_DIR: dir, ANALYTICS_FLUSH_MS: '0' })).toThrow('ANALYTICS_FLUSH_MS must be a positive whole number');
  });
});
