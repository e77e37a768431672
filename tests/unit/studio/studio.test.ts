import { InMemoryStudioRepository } from '../../../adapters/persistence/studio/in-memory-studio.repository';
import type { Application } from '../../../core/applications/domain/application';
import type { Conversation } from '../../../core/conversations/domain/conversation';
import type { ChatPlan, ChatTurn } from '../../../core/conversations/ports/chat-policy.port';
import { effectiveSystemPrompt } from '../../../core/model-configs/domain/precedence';
import { ModelConfigPolicy } from '../../../core/model-configs/use-cases/model-config.policy';
import type { Actor } from '../../../core/shared/actor';
import { NotFoundError, ValidationError } from '../../../core/shared/errors';
import { PublishStudioUseCase } from '../../../core/studio/use-cases/publish-studio.use-case';
import { GetStudioDraftUseCase, SaveStudioDraftUseCase } from '../../../core/studio/use-cases/studio-draft.use-cases';
import { DiffStudioVersionsUseCase, ListStudioVersionsUseCase, RestoreStudioVersionUseCase } from '../../../core/studio/use-cases/studio-versions.use-cases';
import { anActor, anApplication, aWorld } from '../model-configs/model-configs.fixtures';

describe('the application studio', () => {
  let world: ReturnType<typeof aWorld> & { studio: InMemoryStudioRepository };
  let owner: Actor;
  let app: Application;
  let get: GetStudioDraftUseCase;
  let save: SaveStudioDraftUseCase;
  let publish: PublishStudioUseCase;

  beforeEach(async () => {
    const base = aWorld();
    world = { ...base, studio: new InMemoryStudioRepository((id) => base.applications.apps.has(id), () => 'ada@example.com') };
    owner = anActor();
    app = await anApplication(world, owner);
    get = new GetStudioDraftUseCase(world);
    save = new SaveStudioDraftUseCase(world);
    publish = new PublishStudioUseCase(world);
  });

  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  };

  it('starts from the live configuration: the default template supplies the instructions while no config has a prompt', async () => {
    await world.templates.create({ applicationId: app.id, name: 'Greeter', content: 'Template words', variables: [], makeDefault: true });
    const view = await get.execute(app.id, owner);
    expect(view).toMatchObject({ saved: false, latestVersion: null, config: { instructions: 'Template words', provider: 'provider_a', settings: { temperature: 0.7, maxTokens: 2048, topP: 1 } } });
    expect(view.live).toMatchObject({ modelFrom: 'provider_default', systemPromptFrom: 'prompt_template', template: { name: 'Greeter' }, unusedTemplate: null });
  });

  it('saves a draft without changing what end users get', async () => {
    const view = await save.execute(app.id, { instructions: 'Hello {{who}}', variables: { who: 'Ada' }, settings: { temperature: 0.2 } }, owner);
    expect(view).toMatchObject({ saved: true, variables: ['who'], unpublishedChanges: true, config: { settings: { temperature: 0.2, maxTokens: 2048 } } });
    expect(await world.configs.findDefault(app.id)).toBeNull();
  });

  it.each([
    [{ settings: { temperature: 5 } }, 'settings.temperature'],
    [{ settings: { systemPrompt: 'x' } }, 'settings.systemPrompt'],
    [{ provider: 'provider_z' }, 'provider'],
    [{ modelId: 'no-such-model' }, 'modelId'],
    [{ instructions: 42 }, 'instructions'],
    [{ variables: { 'bad name': 'x' } }, 'variables'],
    [{ variables: { who: 3 } }, 'variables'],
    [{ suggestedQuestions: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'suggestedQuestions'],
    [{ openingMessage: 'x'.repeat(501) }, 'openingMessage'],
  ])('refuses %j with a 400 naming %s', async (body, path) => {
    const error = await refusal(save.execute(app.id, body, owner));
    expect(error.details.map((d) => d.path)).toContain(path);
    expect(await world.studio.findDraft(app.id)).toBeNull();
  });

  it('publishes into the default model config with the variables filled, and keeps numbered versions', async () => {
    await save.execute(app.id, { instructions: 'You are {{name}}.', variables: { name: 'Ada' } }, owner);
    const v1 = await publish.execute(app.id, { note: 'First' }, owner);
    expect(v1).toMatchObject({ number: 1, note: 'First', publishedBy: { id: owner.userId, email: 'ada@example.com' }, config: { instructions: 'You are {{name}}.' } });
    const live = await world.configs.findDefault(app.id);
    expect(live).toMatchObject({ name: 'Studio', provider: 'provider_a', settings: { systemPrompt: 'You are Ada.' } });
    await save.execute(app.id, { variables: { name: 'Bo' } }, owner);
    expect((await world.configs.findDefault(app.id))!.settings.systemPrompt).toBe('You are Ada.');
    const v2 = await publish.execute(app.id, {}, owner);
    expect(v2.number).toBe(2);
    expect((await world.configs.findDefault(app.id))).toMatchObject({ id: live!.id, settings: { systemPrompt: 'You are Bo.' } });
    const view = await get.execute(app.id, owner);
    expect(view).toMatchObject({ basedOnVersion: 2, latestVersion: 2, unpublishedChanges: false, live: { publishedVersion: 2, systemPromptFrom: 'model_config', changedOutsideStudio: false } });
    expect((await new ListStudioVersionsUseCase(world).execute(app.id, {}, owner)).data.map((v) => v.number)).toEqual([2, 1]);
  });

  it('refuses to publish instructions with a placeholder that has no value, and stores nothing', async () => {
    await save.execute(app.id, { instructions: 'Hi {{who}}' }, owner);
    const error = await refusal(publish.execute(app.id, {}, owner));
    expect(error.details).toEqual([{ path: 'variables.who', message: expect.any(String) }]);
    expect(await world.configs.findDefault(app.id)).toBeNull();
    expect(await world.studio.latestVersion(app.id)).toBeNull();
  });

  it('names the default template that loses to the config, and notices a config changed outside the studio', async () => {
    await world.templates.create({ applicationId: app.id, name: 'Greeter', content: 'Template words', variables: [], makeDefault: true });
    await save.execute(app.id, { instructions: 'Config words' }, owner);
    await publish.execute(app.id, {}, owner);
    expect((await get.execute(app.id, owner)).live).toMatchObject({ systemPromptFrom: 'model_config', unusedTemplate: { name: 'Greeter' }, template: null });
    const live = (await world.configs.findDefault(app.id))!;
    await world.configs.update(live.id, { settings: { ...live.settings, temperature: 1.1 } });
    expect((await get.execute(app.id, owner)).live).toMatchObject({ publishedVersion: null, changedOutsideStudio: true });
  });

  it('restores a version into the draft only, and diffs versions field by field', async () => {
    await save.execute(app.id, { instructions: 'One' }, owner);
    await publish.execute(app.id, {}, owner);
    await save.execute(app.id, { instructions: 'Two', settings: { temperature: 1 } }, owner);
    await publish.execute(app.id, {}, owner);
    const diff = await new DiffStudioVersionsUseCase(world).execute(app.id, { from: '1', to: '2' }, owner);
    expect(diff.fields.filter((f) => f.changed).map((f) => [f.field, f.from, f.to])).toEqual([
      ['instructions', 'One', 'Two'],
      ['temperature', '0.7', '1'],
    ]);
    const restored = await new RestoreStudioVersionUseCase(world).execute(app.id, '1', owner);
    expect(restored).toMatchObject({ basedOnVersion: 1, unpublishedChanges: true, config: { instructions: 'One' } });
    expect((await world.configs.findDefault(app.id))!.settings.systemPrompt).toBe('Two');
    expect((await new DiffStudioVersionsUseCase(world).execute(app.id, {}, owner)).from.label).toBe('Version 2');
    await refusal(new DiffStudioVersionsUseCase(world).execute(app.id, { from: '0' }, owner));
    await expect(new RestoreStudioVersionUseCase(world).execute(app.id, '9', owner)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("answers 404 on another user's application", async () => {
    const stranger = anActor();
    await expect(get.execute(app.id, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(save.execute(app.id, { instructions: 'x' }, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(publish.execute(app.id, {}, stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(new RestoreStudioVersionUseCase(world).execute(app.id, '1', stranger)).rejects.toBeInstanceOf(NotFoundError);
    await expect(get.execute('not-a-uuid', owner)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('a studio debug turn in the model-config policy', () => {
  it('answers with the draft in place of the default config and any A/B version, and records no metric', async () => {
    const world = aWorld();
    const owner = anActor();
    const app = await anApplication(world, owner);
    const config = await world.configs.create({ applicationId: app.id, name: 'Live', provider: 'provider_b', modelId: 'claude-3-5-haiku-20241022', settings: { temperature: 0.2, maxTokens: 500, topP: 0.9, systemPrompt: 'Live words' }, makeDefault: true });
    const version = await world.versions.create({ configId: config.id, applicationId: app.id, label: 'B', provider: 'provider_b', modelId: 'claude-3-5-haiku-20241022', settings: { temperature: 0.5, maxTokens: 500, topP: 1, systemPrompt: 'Version words' }, trafficShare: 10_000, isActive: true });
    await world.templates.create({ applicationId: app.id, name: 'T', content: 'Template words', variables: [], makeDefault: true });
    const policy = new ModelConfigPolicy(world);
    const turn = (settings: Record<string, unknown>): ChatTurn => ({
      ownerId: app.ownerId,
      application: app,
      conversation: { id: 'c1', applicationId: app.id, configVersionId: version.id } as Conversation,
      content: 'Hello',
      source: 'dashboard',
      draft: { provider: 'provider_a', model: 'gpt-4o-mini', settings },
    });
    const plan: ChatPlan = { settings: {} };
    await policy.prepare(turn({ temperature: 0.3, maxTokens: 100, topP: 1, systemPrompt: 'Draft words' }), plan);
    expect(plan).toMatchObject({ provider: 'provider_a', model: 'gpt-4o-mini', configVersionId: null, settings: { temperature: 0.3, maxTokens: 100, systemPrompt: 'Draft words' } });
    await policy.settle(turn({}), plan, { ok: true, latencyMs: 5, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } });
    expect((await world.versions.findById(version.id))!.counters.requestCount).toBe(0);
    // Empty instructions fall back to the default template, as the published config would.
    const bare: ChatPlan = { settings: {} };
    await policy.prepare(turn({ temperature: 0.3, maxTokens: 100, topP: 1 }), bare);
    expect(bare.settings.systemPrompt).toBe('Template words');
    await expect(policy.prepare(turn({ temperature: 9, maxTokens: 100, topP: 1 }), { settings: {} })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('which system prompt wins', () => {
  it('takes the chosen configuration’s own prompt, else the default template, else none', () => {
    expect(effectiveSystemPrompt({ origin: 'model_config', systemPrompt: 'Config' }, { content: 'Template' })).toEqual({ systemPrompt: 'Config', origin: 'model_config' });
    expect(effectiveSystemPrompt({ origin: 'ab_version', systemPrompt: 'Version' }, { content: 'Template' })).toEqual({ systemPrompt: 'Version', origin: 'ab_version' });
    expect(effectiveSystemPrompt({ origin: 'model_config' }, { content: 'Template' })).toEqual({ systemPrompt: 'Template', origin: 'prompt_template' });
    expect(effectiveSystemPrompt(null, null)).toEqual({ origin: 'none' });
  });
});
