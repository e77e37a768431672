import { ConflictError, NotFoundError, ValidationError } from '../../../core/shared/errors';
import { CreateModelConfigUseCase } from '../../../core/model-configs/use-cases/create-model-config.use-case';
import { DeleteModelConfigUseCase } from '../../../core/model-configs/use-cases/delete-model-config.use-case';
import { GetModelConfigUseCase } from '../../../core/model-configs/use-cases/get-model-config.use-case';
import { ListModelConfigsUseCase } from '../../../core/model-configs/use-cases/list-model-configs.use-case';
import { SetDefaultModelConfigUseCase } from '../../../core/model-configs/use-cases/set-default-model-config.use-case';
import { UpdateModelConfigUseCase } from '../../../core/model-configs/use-cases/update-model-config.use-case';
import { anActor, anApplication, aWorld } from './model-configs.fixtures';

async function pathsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).details.map((d) => d.path);
}

describe('model config use cases', () => {
  const world = aWorld();
  const create = new CreateModelConfigUseCase(world);
  const list = new ListModelConfigsUseCase(world);
  const get = new GetModelConfigUseCase(world);
  const update = new UpdateModelConfigUseCase(world);
  const remove = new DeleteModelConfigUseCase(world);
  const setDefault = new SetDefaultModelConfigUseCase(world);

  async function anOwnerWithApp() {
    const actor = anActor();
    const app = await anApplication(world, actor);
    return { actor, app };
  }

  it('creates a config from name or displayName, with validated settings and defaults filled in', async () => {
    const { actor, app } = await anOwnerWithApp();
    const byName = await create.execute({ applicationId: app.id, name: 'Precise', provider: 'provider_a', modelId: 'gpt-4o', settings: { temperature: 0.2 } }, actor);
    expect(byName).toMatchObject({
      _id: expect.any(String),
      applicationId: app.id,
      name: 'Precise',
      provider: 'provider_a',
      modelId: 'gpt-4o',
      settings: { temperature: 0.2, maxTokens: 2048, topP: 1 },
    });
    const byDisplayName = await create.execute({ applicationId: app.id, displayName: 'Creative', provider: 'provider_b' }, actor);
    expect(byDisplayName).toMatchObject({ name: 'Creative', modelId: 'claude-3-5-sonnet-20241022', isDefault: false });
  });

  it('makes the first config of an application its default', async () => {
    const { actor, app } = await anOwnerWithApp();
    const first = await create.execute({ applicationId: app.id, name: 'First', provider: 'provider_a' }, actor);
    const second = await create.execute({ applicationId: app.id, name: 'Second', provider: 'provider_a' }, actor);
    expect([first.isDefault, second.isDefault]).toEqual([true, false]);
  });

  it('makes a new config the default when asked, unsetting the previous one', async () => {
    const { actor, app } = await anOwnerWithApp();
    const first = await create.execute({ applicationId: app.id, name: 'First', provider: 'provider_a' }, actor);
    const second = await create.execute({ applicationId: app.id, name: 'Second', provider: 'provider_a', isDefault: true }, actor);
    expect(second.isDefault).toBe(true);
    expect((await get.execute(first._id, actor)).isDefault).toBe(false);
  });

  it.each([
    [{ provider: 'provider_c', settings: { temperature: 1.5 } }, 'settings.temperature'],
    [{ provider: 'provider_a', settings: { temperature: 2.1 } }, 'settings.temperature'],
    [{ provider: 'provider_b', modelId: 'claude-3-haiku-20240307', settings: { maxTokens: 5000 } }, 'settings.maxTokens'],
    [{ provider: 'provider_a', settings: { topP: 1.1 } }, 'settings.topP'],
    [{ provider: 'provider_a', settings: { frequencyPenalty: -2.5 } }, 'settings.frequencyPenalty'],
    [{ provider: 'provider_a', settings: { presencePenalty: 3 } }, 'settings.presencePenalty'],
    [{ provider: 'provider_e' }, 'provider'],
    [{ provider: 'provider_a', modelId: 'claude-3-5-sonnet-20241022' }, 'modelId'],
  ])('refuses %j, naming %s', async (fields, path) => {
    const { actor, app } = await anOwnerWithApp();
    expect(await pathsOf(create.execute({ applicationId: app.id, name: 'X', ...fields }, actor))).toContain(path);
  });

  it('requires a name or displayName', async () => {
    const { actor, app } = await anOwnerWithApp();
    expect(await pathsOf(create.execute({ applicationId: app.id, provider: 'provider_a' }, actor))).toEqual(['name']);
  });

  it("answers 404 for another user's application and config", async () => {
    const { actor, app } = await anOwnerWithApp();
    const config = await create.execute({ applicationId: app.id, name: 'Mine', provider: 'provider_a' }, actor);
    const stranger = anActor();
    await expect(create.execute({ applicationId: app.id, name: 'X', provider: 'provider_a' }, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(list.execute({ applicationId: app.id }, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(get.execute(config._id, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(update.execute(config._id, { name: 'Stolen' }, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setDefault.execute(config._id, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(remove.execute(config._id, stranger)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('requires applicationId to list', async () => {
    const { actor } = await anOwnerWithApp();
    expect(await pathsOf(list.execute({}, actor))).toEqual(['applicationId']);
  });

  it('merges updated settings over the stored ones and checks them against the new provider', async () => {
    const { actor, app } = await anOwnerWithApp();
    const config = await create.execute({ applicationId: app.id, name: 'C', provider: 'provider_a', settings: { temperature: 1.5, topP: 0.9 } }, actor);
    const patched = await update.execute(config._id, { settings: { topP: 0.5 } }, actor);
    expect(patched.settings).toMatchObject({ temperature: 1.5, topP: 0.5 });
    expect(await pathsOf(update.execute(config._id, { provider: 'provider_c' }, actor))).toEqual(['settings.temperature']);
    const moved = await update.execute(config._id, { provider: 'provider_c', settings: { temperature: 0.9 } }, actor);
    expect(moved).toMatchObject({ provider: 'provider_c', modelId: 'gemini-2.0-flash', settings: { temperature: 0.9, topP: 0.5 } });
  });

  it('switches the default, and refuses to delete it until another is the default', async () => {
    const { actor, app } = await anOwnerWithApp();
    const a = await create.execute({ applicationId: app.id, name: 'A', provider: 'provider_a' }, actor);
    const b = await create.execute({ applicationId: app.id, name: 'B', provider: 'provider_a' }, actor);
    await expect(remove.execute(a._id, actor)).rejects.toBeInstanceOf(ConflictError);
    await expect(update.execute(a._id, { isDefault: false }, actor)).rejects.toBeInstanceOf(ConflictError);
    expect((await setDefault.execute(b._id, actor)).isDefault).toBe(true);
    const all = await list.execute({ applicationId: app.id }, actor);
    expect(all.filter((c) => c.isDefault).map((c) => c._id)).toEqual([b._id]);
    await remove.execute(a._id, actor);
    await expect(get.execute(a._id, actor)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('makes a config the default through an update with isDefault', async () => {
    const { actor, app } = await anOwnerWithApp();
    await create.execute({ applicationId: app.id, name: 'A', provider: 'provider_a' }, actor);
    const b = await create.execute({ applicationId: app.id, name: 'B', provider: 'provider_a' }, actor);
    expect((await update.execute(b._id, { isDefault: true, name: 'B2' }, actor)).isDefault).toBe(true);
  });
});
