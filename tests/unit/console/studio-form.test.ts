import { placeholders, toConfig, toForm } from '../../../apps/console/src/routes/studio/build-form';

describe('the studio Build form mapping', () => {
  const config = {
    instructions: 'You are {{name}} at {{ place }}; {{name}} again.',
    variables: { name: 'Ada', place: 'Acme', stale: 'gone' },
    provider: 'provider_a' as const,
    modelId: 'gpt-4o-mini',
    settings: { temperature: 0.3, maxTokens: 500, topP: 1, presencePenalty: -0.5 },
    openingMessage: 'Hello',
    suggestedQuestions: ['Where is my order?', 'How do I return it?'],
  };

  it('finds each placeholder once, in order, as the API does', () => {
    expect(placeholders(config.instructions)).toEqual(['name', 'place']);
    expect(placeholders('{{ 1 + 1 }} {{x-y.z}}')).toEqual(['x-y.z']);
  });

  it('keeps numbers as typed text, an unset optional setting empty, and questions one per line', () => {
    expect(toForm(config)).toEqual({
      instructions: config.instructions,
      variables: config.variables,
      provider: 'provider_a',
      modelId: 'gpt-4o-mini',
      settings: { temperature: '0.3', maxTokens: '500', topP: '1', frequencyPenalty: '', presencePenalty: '-0.5' },
      openingMessage: 'Hello',
      suggested: 'Where is my order?\nHow do I return it?',
      resilience: { maxRetries: '', baseDelayMs: '', maxDelayMs: '', balance: '', fallbacks: '' },
    });
  });

  it('writes retries and the ordered fallbacks into settings.resilience, and reads them back', () => {
    const form = toForm(config);
    form.resilience = { maxRetries: '2', baseDelayMs: '500', maxDelayMs: '', balance: 'provider_a/gpt-4o-mini', fallbacks: 'provider_b/claude-3-5-haiku-latest\n\nlocal-llm/org/model:8b' };
    const sent = toConfig(form);
    expect(sent.settings).toMatchObject({ resilience: { retry: { maxRetries: 2, baseDelayMs: 500 }, balance: [{ provider: 'provider_a', model: 'gpt-4o-mini' }], fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }, { provider: 'local-llm', model: 'org/model:8b' }] } });
    expect(toForm(sent).resilience).toEqual({ maxRetries: '2', baseDelayMs: '500', maxDelayMs: '', balance: 'provider_a/gpt-4o-mini', fallbacks: 'provider_b/claude-3-5-haiku-latest\nlocal-llm/org/model:8b' });
  });

  it('sends numbers as numbers, leaves out empty optional settings, values of unused variables and blank questions', () => {
    const form = toForm(config);
    form.suggested = ' Where is my order? \n\n';
    expect(toConfig(form)).toEqual({ ...config, variables: { name: 'Ada', place: 'Acme' }, suggestedQuestions: ['Where is my order?'] });
  });
});
