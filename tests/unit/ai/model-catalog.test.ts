import {
  acceptsAnyModel,
  defaultModel,
  findModel,
  isOpenModelId,
  listCatalogModels,
  OPEN_MODEL_LIMITS,
} from '../../../core/ai/domain/model-catalog';
import { PROVIDER_IDS } from '../../../core/ai/domain/provider-id';

describe('model catalogue', () => {
  it.each(PROVIDER_IDS)('lists %s models, its default among them, each with sane limits', (provider) => {
    const models = listCatalogModels(provider);
    expect(models.length).toBeGreaterThan(0);
    expect(models.map((m) => m.id)).toContain(defaultModel(provider));
    expect(new Set(models.map((m) => m.id)).size).toBe(models.length);
    for (const m of models) {
      expect(Number.isInteger(m.maxOutputTokens)).toBe(true);
      expect(m.maxOutputTokens).toBeGreaterThan(0);
      expect(m.maxOutputTokens).toBeLessThanOrEqual(128_000);
      expect(m.contextWindow).toBeGreaterThanOrEqual(m.maxOutputTokens);
    }
  });

  it('gives the OpenAI-class model 8K output and its turbo variant 128K (SPEC 2.3)', () => {
    expect(findModel('provider_a', 'gpt-4')?.maxOutputTokens).toBe(8_192);
    expect(findModel('provider_a', 'gpt-4-turbo')?.maxOutputTokens).toBe(128_000);
  });

  it('gives provider_b older-generation models 4096 and newer ones 8192 output tokens', () => {
    expect(findModel('provider_b', 'claude-3-haiku-20240307')?.maxOutputTokens).toBe(4_096);
    expect(findModel('provider_b', 'claude-3-opus-20240229')?.maxOutputTokens).toBe(4_096);
    expect(findModel('provider_b', 'claude-3-5-sonnet-20241022')?.maxOutputTokens).toBe(8_192);
    expect(findModel('provider_b', 'claude-3-5-haiku-20241022')?.maxOutputTokens).toBe(8_192);
  });

  it.each(['provider_a', 'provider_b', 'provider_c'] as const)('%s accepts only catalogued models', (provider) => {
    expect(acceptsAnyModel(provider)).toBe(false);
    expect(findModel(provider, 'some-org/some-model')).toBeUndefined();
    expect(findModel(provider, 'not-a-model')).toBeUndefined();
    expect(findModel(provider, defaultModel(provider))?.id).toBe(defaultModel(provider));
  });

  it('does not mix the catalogues of different providers', () => {
    expect(findModel('provider_a', 'claude-3-5-sonnet-20241022')).toBeUndefined();
    expect(findModel('provider_b', 'gpt-4o')).toBeUndefined();
    expect(findModel('provider_c', 'gpt-4o')).toBeUndefined();
  });

  it('provider_d accepts any organization/model id with the open-model limits', () => {
    expect(acceptsAnyModel('provider_d')).toBe(true);
    const found = findModel('provider_d', 'my-org/My.Model_v2-7B');
    expect(found).toEqual({ id: 'my-org/My.Model_v2-7B', ...OPEN_MODEL_LIMITS });
    expect(OPEN_MODEL_LIMITS.maxOutputTokens).toBe(128_000);
    expect(OPEN_MODEL_LIMITS.contextWindow).toBeGreaterThanOrEqual(128_000);
  });

  it.each(['llama', 'org/', '/model', 'a/b/c', 'org model/x', 'org/mo del', 'https://example.com/x', 'org/../x', '-org/model', '', 'org/model?x=1'])(
    'provider_d refuses the malformed id %p',
    (id) => {
      expect(isOpenModelId(id)).toBe(false);
      expect(findModel('provider_d', id)).toBeUndefined();
    },
  );

  it('refuses an over-long organization or model name', () => {
    expect(isOpenModelId(`${'a'.repeat(96)}/model`)).toBe(true);
    expect(isOpenModelId(`${'a'.repeat(97)}/model`)).toBe(false);
    expect(isOpenModelId(`org/${'m'.repeat(97)}`)).toBe(false);
  });
});
