import { modelChoiceResolver, resolveChoicePatch, type ConnectionFinder } from '../../../core/connections/use-cases/model-choice';
import type { Connection } from '../../../core/connections/domain/connection';
import { ValidationError } from '../../../core/shared/errors';

/** The validator of what configs, versions and drafts save: built-in ids as before, or the owner's connection. */
describe('modelChoiceResolver', () => {
  const connection = { id: 'c1', ownerId: 'owner-1', name: 'local-llm', models: ['llama3.1:8b', 'qwen2.5'] } as Connection;
  const asked: string[] = [];
  const finder: ConnectionFinder = {
    findByName: async ({ ownerId }, name) => {
      asked.push(ownerId);
      return ownerId === connection.ownerId && name === connection.name ? connection : null;
    },
  };
  const paths = { provider: 'provider', model: 'modelId', settings: 'settings' };
  const fieldOf = async (p: Promise<unknown>) => ((await p.then(() => null, (e) => e)) as ValidationError).details?.[0]?.path;

  beforeEach(() => (asked.length = 0));

  it('checks a built-in provider as before, without looking up the owner', async () => {
    const owner = jest.fn(async () => ({ ownerId: 'owner-1' }));
    await expect(modelChoiceResolver(finder, owner)('provider_a', 'gpt-4o-mini', {}, paths)).resolves.toMatchObject({ provider: 'provider_a', model: 'gpt-4o-mini' });
    expect(owner).not.toHaveBeenCalled();
  });

  it("takes the owner's connection with one of its models (its first by default) and checks the settings", async () => {
    const resolve = modelChoiceResolver(finder, { ownerId: 'owner-1' });
    await expect(resolve('local-llm', 'qwen2.5', { temperature: 0.3 }, paths)).resolves.toMatchObject({ provider: 'local-llm', model: 'qwen2.5', settings: { temperature: 0.3 } });
    await expect(resolve('local-llm', undefined, {}, paths)).resolves.toMatchObject({ model: 'llama3.1:8b' });
    expect(await fieldOf(resolve('local-llm', 'gpt-4o', {}, paths))).toBe('modelId');
    expect(await fieldOf(resolve('local-llm', 'qwen2.5', { temperature: 9 }, paths))).toBe('settings.temperature');
  });

  it("refuses another owner's connection and an unknown name on the provider field", async () => {
    expect(await fieldOf(modelChoiceResolver(finder, { ownerId: 'owner-2' })('local-llm', 'qwen2.5', {}, paths))).toBe('provider');
    expect(await fieldOf(modelChoiceResolver(finder, { ownerId: 'owner-1' })('nowhere', undefined, {}, paths))).toBe('provider');
    expect(await fieldOf(modelChoiceResolver(finder, { ownerId: 'owner-1' })({ not: 'a name' }, undefined, {}, paths))).toBe('provider');
    expect(asked).toEqual(['owner-2', 'owner-1']);
  });

  it('merges a settings patch over the stored settings before checking', async () => {
    const resolved = await resolveChoicePatch(modelChoiceResolver(finder, { ownerId: 'owner-1' }), 'local-llm', 'qwen2.5', { temperature: 0.2, topP: 0.5 }, { topP: null, maxTokens: 100 }, paths);
    expect(resolved.settings).toMatchObject({ temperature: 0.2, topP: 1, maxTokens: 100 });
  });
});
