import { ValidationError } from '../../../core/shared/errors';
import { defaultModel, findModel } from '../../../core/ai/domain/model-catalog';
import {
  MAX_SYSTEM_PROMPT_LENGTH,
  resolveModelSettings,
  validateSettingsPatch,
} from '../../../core/ai/domain/model-settings';
import { PROVIDER_IDS, type ProviderId } from '../../../core/ai/domain/provider-id';

/** A model of each provider whose maximum output is at least 8192 tokens. */
const ROOMY: Record<ProviderId, string> = {
  provider_a: 'gpt-4o',
  provider_b: 'claude-3-5-sonnet-20241022',
  provider_c: 'gemini-2.0-flash',
  provider_d: 'meta-llama/Llama-3.1-8B-Instruct',
};

function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

const pathsOf = (fn: () => unknown) => validationErrorOf(fn).details.map((d) => d.path);

describe('resolveModelSettings', () => {
  describe('provider and model', () => {
    it.each([undefined, null, 'provider_e', 'openai', 42, ''])('refuses the provider %p, naming `provider`', (provider) => {
      const error = validationErrorOf(() => resolveModelSettings(provider, 'gpt-4o', {}));
      expect(error.details).toEqual([{ path: 'provider', message: expect.stringContaining('provider_a') }]);
    });

    it.each(PROVIDER_IDS)('uses the default model of %s when none is given', (provider) => {
      expect(resolveModelSettings(provider, undefined, undefined).model).toBe(defaultModel(provider));
      expect(resolveModelSettings(provider, null, {}).model).toBe(defaultModel(provider));
    });

    it.each([
      ['provider_a', 'claude-3-5-sonnet-20241022'],
      ['provider_b', 'gpt-4o'],
      ['provider_c', 'gemini-0-imaginary'],
      ['provider_d', 'no-organization'],
      ['provider_d', 'a/b/c'],
      ['provider_a', ''],
      ['provider_a', 12],
    ])('refuses %s with the model %p, naming `model`', (provider, model) => {
      expect(pathsOf(() => resolveModelSettings(provider, model, {}))).toEqual(['model']);
    });

    it('lets the caller name the fields as its own input does', () => {
      expect(pathsOf(() => resolveModelSettings('provider_a', 'nope', {}, { model: 'modelId' }))).toEqual(['modelId']);
      expect(pathsOf(() => resolveModelSettings('provider_a', 'gpt-4o', { topP: 2 }, { settings: 'config.settings' }))).toEqual([
        'config.settings.topP',
      ]);
    });

    it('accepts any well-formed organization/model id for provider_d', () => {
      expect(resolveModelSettings('provider_d', 'some-org/some-model', {}).model).toBe('some-org/some-model');
    });
  });

  describe('defaults', () => {
    it.each(PROVIDER_IDS)('fills the SPEC 2.3 defaults for %s', (provider) => {
      expect(resolveModelSettings(provider, ROOMY[provider], {}).settings).toEqual({ temperature: 0.7, maxTokens: 2048, topP: 1 });
    });

    it('caps the default maxTokens to a smaller model maximum', () => {
      // No catalogued model is below 2048 today; the cap is the model maximum whenever it is smaller.
      const settings = resolveModelSettings('provider_b', 'claude-3-haiku-20240307', {}).settings;
      expect(settings.maxTokens).toBe(Math.min(2048, findModel('provider_b', 'claude-3-haiku-20240307')!.maxOutputTokens));
    });

    it('keeps optional settings only when given, and ignores unknown keys', () => {
      const { settings } = resolveModelSettings('provider_a', 'gpt-4o', {
        frequencyPenalty: 0.5,
        presencePenalty: -0.5,
        systemPrompt: 'Be brief.',
        colour: 'blue',
      });
      expect(settings).toEqual({ temperature: 0.7, maxTokens: 2048, topP: 1, frequencyPenalty: 0.5, presencePenalty: -0.5, systemPrompt: 'Be brief.' });
    });

    it('treats null as not set', () => {
      expect(resolveModelSettings('provider_a', 'gpt-4o', { temperature: null, systemPrompt: null }).settings).toEqual({
        temperature: 0.7,
        maxTokens: 2048,
        topP: 1,
      });
    });
  });

  describe('temperature', () => {
    it.each(['provider_a', 'provider_b', 'provider_d'] as const)('%s takes 0 to 2', (provider) => {
      for (const t of [0, 0.5, 1, 1.5, 2]) expect(resolveModelSettings(provider, ROOMY[provider], { temperature: t }).settings.temperature).toBe(t);
      for (const t of [-0.01, 2.01, 3]) expect(pathsOf(() => resolveModelSettings(provider, ROOMY[provider], { temperature: t }))).toEqual(['settings.temperature']);
    });

    it('provider_c takes 0 to 1 only', () => {
      for (const t of [0, 0.3, 1]) expect(resolveModelSettings('provider_c', ROOMY.provider_c, { temperature: t }).settings.temperature).toBe(t);
      for (const t of [-0.1, 1.01, 1.5, 2]) {
        const error = validationErrorOf(() => resolveModelSettings('provider_c', ROOMY.provider_c, { temperature: t }));
        expect(error.details).toEqual([{ path: 'settings.temperature', message: expect.stringMatching(/between 0 and 1 for provider_c/) }]);
      }
    });
  });

  describe('maxTokens', () => {
    it.each(PROVIDER_IDS)('%s takes integers from 1 to the model maximum', (provider) => {
      const max = findModel(provider, ROOMY[provider])!.maxOutputTokens;
      for (const n of [1, 100, max]) expect(resolveModelSettings(provider, ROOMY[provider], { maxTokens: n }).settings.maxTokens).toBe(n);
      for (const n of [0, -5, 1.5, max + 1]) expect(pathsOf(() => resolveModelSettings(provider, ROOMY[provider], { maxTokens: n }))).toEqual(['settings.maxTokens']);
    });

    it('never goes above 128000, even for provider_d', () => {
      expect(resolveModelSettings('provider_d', 'org/model', { maxTokens: 128_000 }).settings.maxTokens).toBe(128_000);
      expect(pathsOf(() => resolveModelSettings('provider_d', 'org/model', { maxTokens: 128_001 }))).toEqual(['settings.maxTokens']);
    });

    it('bounds the OpenAI-class model at 8K and its turbo variant at 128K', () => {
      expect(resolveModelSettings('provider_a', 'gpt-4', { maxTokens: 8192 }).settings.maxTokens).toBe(8192);
      expect(validationErrorOf(() => resolveModelSettings('provider_a', 'gpt-4', { maxTokens: 8193 })).message).toMatch(/at most 8192.*gpt-4/);
      expect(resolveModelSettings('provider_a', 'gpt-4-turbo', { maxTokens: 128_000 }).settings.maxTokens).toBe(128_000);
    });

    it('bounds provider_b older models at 4096 and newer ones at 8192', () => {
      expect(resolveModelSettings('provider_b', 'claude-3-haiku-20240307', { maxTokens: 4096 }).settings.maxTokens).toBe(4096);
      expect(pathsOf(() => resolveModelSettings('provider_b', 'claude-3-haiku-20240307', { maxTokens: 4097 }))).toEqual(['settings.maxTokens']);
      expect(resolveModelSettings('provider_b', 'claude-3-5-sonnet-20241022', { maxTokens: 8192 }).settings.maxTokens).toBe(8192);
      expect(pathsOf(() => resolveModelSettings('provider_b', 'claude-3-5-sonnet-20241022', { maxTokens: 8193 }))).toEqual(['settings.maxTokens']);
    });
  });

  describe('topP and penalties', () => {
    it.each(PROVIDER_IDS)('%s takes topP from 0 to 1 and penalties from -2 to 2', (provider) => {
      const model = ROOMY[provider];
      for (const v of [0, 0.9, 1]) expect(resolveModelSettings(provider, model, { topP: v }).settings.topP).toBe(v);
      for (const v of [-0.1, 1.1]) expect(pathsOf(() => resolveModelSettings(provider, model, { topP: v }))).toEqual(['settings.topP']);
      for (const field of ['frequencyPenalty', 'presencePenalty'] as const) {
        for (const v of [-2, 0, 1.25, 2]) expect(resolveModelSettings(provider, model, { [field]: v }).settings[field]).toBe(v);
        for (const v of [-2.01, 2.5]) expect(pathsOf(() => resolveModelSettings(provider, model, { [field]: v }))).toEqual([`settings.${field}`]);
      }
    });
  });

  describe('types', () => {
    it.each([
      ['temperature', '0.5'],
      ['maxTokens', '100'],
      ['topP', true],
      ['frequencyPenalty', [1]],
      ['presencePenalty', {}],
      ['temperature', Number.NaN],
      ['maxTokens', Number.POSITIVE_INFINITY],
    ])('refuses %s given as %p (numbers must be real numbers)', (field, value) => {
      expect(pathsOf(() => resolveModelSettings('provider_a', 'gpt-4o', { [field]: value }))).toEqual([`settings.${field}`]);
    });

    it('requires the system prompt to be a string of sane length', () => {
      expect(pathsOf(() => resolveModelSettings('provider_a', 'gpt-4o', { systemPrompt: 5 }))).toEqual(['settings.systemPrompt']);
      const long = 'x'.repeat(MAX_SYSTEM_PROMPT_LENGTH + 1);
      expect(pathsOf(() => resolveModelSettings('provider_a', 'gpt-4o', { systemPrompt: long }))).toEqual(['settings.systemPrompt']);
      const max = 'x'.repeat(MAX_SYSTEM_PROMPT_LENGTH);
      expect(resolveModelSettings('provider_a', 'gpt-4o', { systemPrompt: max }).settings.systemPrompt).toBe(max);
    });

    it.each(['fast', 3, ['temperature']])('refuses settings that are not an object (%p)', (raw) => {
      expect(pathsOf(() => resolveModelSettings('provider_a', 'gpt-4o', raw))).toEqual(['settings']);
    });

    it('reports every bad field at once', () => {
      const error = validationErrorOf(() => resolveModelSettings('provider_c', 'gemini-2.0-flash', { temperature: 1.5, maxTokens: 0, topP: 'x' }));
      expect(error.details.map((d) => d.path).sort()).toEqual(['settings.maxTokens', 'settings.temperature', 'settings.topP']);
      expect(error.message).toContain('settings.temperature');
    });
  });
});

describe('validateSettingsPatch', () => {
  const current = { temperature: 0.2, maxTokens: 1000, topP: 0.9, systemPrompt: 'Old' };

  it('merges the patch over the stored settings, then validates the whole', () => {
    const { settings } = validateSettingsPatch('provider_a', 'gpt-4o', current, { temperature: 1.2 });
    expect(settings).toEqual({ temperature: 1.2, maxTokens: 1000, topP: 0.9, systemPrompt: 'Old' });
  });

  it('clears an optional field patched with null', () => {
    expect(validateSettingsPatch('provider_a', 'gpt-4o', current, { systemPrompt: null }).settings.systemPrompt).toBeUndefined();
  });

  it('re-checks stored values against a new provider or model', () => {
    expect(pathsOf(() => validateSettingsPatch('provider_c', 'gemini-2.0-flash', { ...current, temperature: 1.5 }, {}))).toEqual([
      'settings.temperature',
    ]);
    expect(pathsOf(() => validateSettingsPatch('provider_b', 'claude-3-haiku-20240307', { ...current, maxTokens: 8000 }, {}))).toEqual([
      'settings.maxTokens',
    ]);
  });

  it('refuses a patch that is not an object', () => {
    expect(pathsOf(() => validateSettingsPatch('provider_a', 'gpt-4o', current, 'hot'))).toEqual(['settings']);
  });
});
