import { ConflictError, NotFoundError, ValidationError } from '../../../core/shared/errors';
import { CreateConfigVersionUseCase } from '../../../core/model-configs/use-cases/create-config-version.use-case';
import { CreateModelConfigUseCase } from '../../../core/model-configs/use-cases/create-model-config.use-case';
import { DeleteConfigVersionUseCase } from '../../../core/model-configs/use-cases/delete-config-version.use-case';
import { CompareConfigVersionsUseCase } from '../../../core/model-configs/use-cases/compare-config-versions.use-case';
import { ListConfigVersionsUseCase } from '../../../core/model-configs/use-cases/list-config-versions.use-case';
import { UpdateConfigVersionUseCase } from '../../../core/model-configs/use-cases/update-config-version.use-case';
import { anActor, anApplication, aWorld } from './model-configs.fixtures';

describe('A/B version use cases', () => {
  const world = aWorld();
  const createConfig = new CreateModelConfigUseCase(world);
  const create = new CreateConfigVersionUseCase(world);
  const list = new ListConfigVersionsUseCase(world);
  const update = new UpdateConfigVersionUseCase(world);
  const remove = new DeleteConfigVersionUseCase(world);
  const compare = new CompareConfigVersionsUseCase(world);

  async function aConfig(fields: Record<string, unknown> = {}) {
    const actor = anActor();
    const app = await anApplication(world, actor);
    const config = await createConfig.execute({ applicationId: app.id, name: 'Base', provider: 'provider_a', modelId: 'gpt-4o', settings: { temperature: 0.3, systemPrompt: 'Be brief.' }, ...fields }, actor);
    return { actor, app, config };
  }

  it('creates a version from a label, settings and a share, inheriting the rest from its config', async () => {
    const { actor, app, config } = await aConfig();
    const version = await create.execute(config._id, { label: 'Warmer', settings: { temperature: 0.9 }, trafficPercent: 25 }, actor);
    expect(version).toMatchObject({
      _id: expect.any(String),
      configId: config._id,
      applicationId: app.id,
      version: 'v1',
      label: 'Warmer',
      provider: 'provider_a',
      modelId: 'gpt-4o',
      settings: { temperature: 0.9, systemPrompt: 'Be brief.', maxTokens: 2048 },
      trafficPercent: 25,
      isActive: true,
      metrics: { requestCount: 0, avgLatencyMs: null, avgTokensUsed: null, errorRate: null, userSatisfactionScore: null },
    });
    const second = await create.execute(config._id, { label: 'Other', version: 'v9-beta' }, actor);
    expect(second).toMatchObject({ version: 'v9-beta', trafficPercent: 0 });
  });

  it('keeps only the system prompt when a version moves to another provider', async () => {
    const { actor, config } = await aConfig();
    const version = await create.execute(config._id, { label: 'Gemini', provider: 'provider_c' }, actor);
    expect(version).toMatchObject({ provider: 'provider_c', modelId: 'gemini-2.0-flash', settings: { temperature: 0.7, systemPrompt: 'Be brief.' } });
  });

  it('checks a version\'s settings against its own provider', async () => {
    const { actor, config } = await aConfig();
    const error = await create.execute(config._id, { label: 'Hot', provider: 'provider_c', settings: { temperature: 1.2 } }, actor).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details.map((d: { path: string }) => d.path)).toEqual(['settings.temperature']);
  });

  it('answers 409 for a label already used in the config, in any letter case', async () => {
    const { actor, config } = await aConfig();
    await create.execute(config._id, { label: 'Control' }, actor);
    await expect(create.execute(config._id, { label: 'control' }, actor)).rejects.toBeInstanceOf(ConflictError);
    const other = await create.execute(config._id, { label: 'Variant' }, actor);
    await expect(update.execute(config._id, other._id, { label: 'CONTROL' }, actor)).rejects.toBeInstanceOf(ConflictError);
  });

  it('refuses active versions taking more than 100% together, and counts inactive ones as 0', async () => {
    const { actor, config } = await aConfig();
    const a = await create.execute(config._id, { label: 'A', trafficPercent: 60 }, actor);
    await expect(create.execute(config._id, { label: 'B', trafficPercent: 41 }, actor)).rejects.toBeInstanceOf(ValidationError);
    const b = await create.execute(config._id, { label: 'B', trafficPercent: 41, isActive: false }, actor);
    await expect(update.execute(config._id, b._id, { isActive: true }, actor)).rejects.toBeInstanceOf(ValidationError);
    await update.execute(config._id, a._id, { trafficPercent: 59 }, actor);
    expect((await update.execute(config._id, b._id, { isActive: true }, actor)).isActive).toBe(true);
  });

  it.each([-1, 101, 10.555, '50'])('refuses a trafficPercent of %p', async (trafficPercent) => {
    const { actor, config } = await aConfig();
    const error = await create.execute(config._id, { label: 'X', trafficPercent }, actor).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details[0].path).toBe('trafficPercent');
  });

  it('gives a deleted version\'s share to the remaining active versions in proportion', async () => {
    const { actor, config } = await aConfig();
    await create.execute(config._id, { label: 'A', trafficPercent: 20 }, actor);
    await create.execute(config._id, { label: 'B', trafficPercent: 40 }, actor);
    const c = await create.execute(config._id, { label: 'C', trafficPercent: 30 }, actor);
    await create.execute(config._id, { label: 'Off', trafficPercent: 50, isActive: false }, actor);
    await remove.execute(config._id, c._id, actor);
    const shares = Object.fromEntries((await list.execute(config._id, actor)).map((v) => [v.label, v.trafficPercent]));
    expect(shares).toEqual({ A: 30, B: 60, Off: 50 });
  });

  it('keeps the sum to two decimals when the freed share does not divide evenly', async () => {
    const { actor, config } = await aConfig();
    for (const label of ['A', 'B', 'C']) await create.execute(config._id, { label, trafficPercent: 10 }, actor);
    const d = await create.execute(config._id, { label: 'D', trafficPercent: 0.01 + 9.99 }, actor);
    await remove.execute(config._id, d._id, actor);
    const shares = (await list.execute(config._id, actor)).map((v) => v.trafficPercent);
    expect(Math.round(shares.reduce((s, x) => s + x, 0) * 100)).toBe(4000);
    expect(shares.sort()).toEqual([13.33, 13.33, 13.34]);
  });

  it('shows the average rating of a version\'s answers as its satisfaction score', async () => {
    const { actor, config } = await aConfig();
    const v = await create.execute(config._id, { label: 'Rated' }, actor);
    for (const [id, rating] of [['m1', 5], ['m2', 2], ['m3', null]] as const) {
      world.ratings.messages.set(id, { id, conversationId: 'c', role: 'assistant', status: 'complete', configVersionId: v._id, rating });
    }
    expect((await list.execute(config._id, actor))[0]!.metrics.userSatisfactionScore).toBe(3.5);
  });

  it('shows the control arm (the config itself, with the traffic its active versions leave) beside the versions, with the same metrics', async () => {
    const { actor, app, config } = await aConfig();
    const active = await create.execute(config._id, { label: 'Active', trafficPercent: 30 }, actor);
    await create.execute(config._id, { label: 'Paused', trafficPercent: 50, isActive: false }, actor);
    await world.configs.recordControlOutcome(config._id, { ok: true, latencyMs: 120, totalTokens: 40 });
    await world.configs.recordControlOutcome(config._id, { ok: false });
    world.ratings.messages.set('control-1', { id: 'control-1', conversationId: 'c', role: 'assistant', status: 'complete', configVersionId: null, rating: 4, applicationId: app.id, provider: 'provider_a', model: 'gpt-4o' });
    world.ratings.messages.set('elsewhere', { id: 'elsewhere', conversationId: 'c', role: 'assistant', status: 'complete', configVersionId: null, rating: 1, applicationId: app.id, provider: 'provider_b', model: 'other' });
    const view = await compare.execute(config._id, actor);
    expect(view.control).toEqual({
      configId: config._id,
      name: 'Base',
      provider: 'provider_a',
      modelId: 'gpt-4o',
      isDefault: true,
      trafficPercent: 70,
      metrics: { requestCount: 2, avgLatencyMs: 120, avgTokensUsed: 40, errorRate: 0.5, userSatisfactionScore: 4 },
    });
    expect(view.versions.map((v) => v.label)).toEqual(['Active', 'Paused']);
    expect(view.versions[0]).toMatchObject({ _id: active._id, trafficPercent: 30, metrics: { requestCount: 0 } });
    await expect(compare.execute(config._id, anActor())).rejects.toBeInstanceOf(NotFoundError);
  });

  it("counts the control's rating from the start of the config's A/B test when it has one, never answers from before", async () => {
    const { actor, app, config } = await aConfig();
    await create.execute(config._id, { label: 'Active', trafficPercent: 30 }, actor);
    await world.configs.recordControlOutcome(config._id, { ok: true, latencyMs: 120, totalTokens: 40 });
    const start = new Date('2026-11-29T10:00:00Z');
    const answer = (id: string, rating: number, createdAt: Date) =>
      world.ratings.messages.set(id, { id, conversationId: 'c', role: 'assistant', status: 'complete', configVersionId: null, rating, applicationId: app.id, provider: 'provider_a', model: 'gpt-4o', createdAt });
    answer('before', 5, new Date(start.getTime() - 1000));
    answer('during', 2, new Date(start.getTime() + 1000));
    const withTest = new CompareConfigVersionsUseCase({ ...world, controlSince: async (id) => (id === config._id ? start : null) });
    expect((await withTest.execute(config._id, actor)).control.metrics.userSatisfactionScore).toBe(2);
    expect((await compare.execute(config._id, actor)).control.metrics.userSatisfactionScore).toBe(3.5);
  });

  it("answers 404 for another user's config or a version of another config", async () => {
    const { actor, config } = await aConfig();
    const other = await aConfig();
    const v = await create.execute(config._id, { label: 'Mine' }, actor);
    await expect(list.execute(config._id, other.actor)).rejects.toBeInstanceOf(NotFoundError);
    await expect(create.execute(config._id, { label: 'X' }, other.actor)).rejects.toBeInstanceOf(NotFoundError);
    await expect(update.execute(other.config._id, v._id, { label: 'X' }, other.actor)).rejects.toBeInstanceOf(NotFoundError);
    await expect(remove.execute(other.config._id, v._id, other.actor)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses an applicationId that is not the config\'s', async () => {
    const { actor, config } = await aConfig();
    const elsewhere = await anApplication(world, actor);
    const error = await create.execute(config._id, { label: 'X', applicationId: elsewhere.id }, actor).catch((e) => e);
    expect(error.details[0].path).toBe('applicationId');
  });
});
