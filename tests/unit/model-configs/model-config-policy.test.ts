import type { Application } from '../../../core/applications/domain/application';
import type { Conversation } from '../../../core/conversations/domain/conversation';
import type { ChatPlan, ChatTurn } from '../../../core/conversations/ports/chat-policy.port';
import { ModelConfigPolicy } from '../../../core/model-configs/use-cases/model-config.policy';
import { PaymentRequiredError, UpstreamError, ValidationError } from '../../../core/shared/errors';
import { anActor, anApplication, aWorld } from './model-configs.fixtures';

const usage = (totalTokens: number) => ({ promptTokens: 1, completionTokens: totalTokens - 1, totalTokens });

describe('the model-config chat policy', () => {
  let world: ReturnType<typeof aWorld>;
  let app: Application;
  let nextRandom: number;
  let policy: ModelConfigPolicy;
  const metricsErrors: unknown[] = [];

  beforeEach(async () => {
    world = aWorld();
    app = await anApplication(world, anActor());
    nextRandom = 0;
    metricsErrors.length = 0;
    policy = new ModelConfigPolicy({ ...world, random: () => nextRandom, onMetricsError: (e) => metricsErrors.push(e) });
  });

  const aConfig = (fields: Partial<Parameters<typeof world.configs.create>[0]> = {}) =>
    world.configs.create({
      applicationId: app.id,
      name: 'Config',
      provider: 'provider_b',
      modelId: 'claude-3-5-haiku-20241022',
      settings: { temperature: 0.2, maxTokens: 500, topP: 0.9 },
      makeDefault: false,
      ...fields,
    });

  const aVersion = (configId: string, share: number, fields: Record<string, unknown> = {}) =>
    world.versions.create({
      configId,
      applicationId: app.id,
      label: `L${Math.random()}`,
      provider: 'provider_c',
      modelId: 'gemini-2.0-flash',
      settings: { temperature: 0.8, maxTokens: 300, topP: 1, systemPrompt: 'Version prompt' },
      trafficShare: share,
      isActive: true,
      ...fields,
    });

  const aTurn = (configVersionId: string | null = null): ChatTurn => ({
    ownerId: app.ownerId,
    application: app,
    conversation: { id: 'c1', applicationId: app.id, configVersionId } as Conversation,
    content: 'Hello',
    source: 'dashboard',
  });

  const aPlan = (fields: Partial<ChatPlan> = {}): ChatPlan => ({ settings: {}, ...fields });

  describe('assigning a version to a new conversation', () => {
    it('chooses by the random point among the default config\'s active versions, else the parent (null)', async () => {
      const config = await aConfig();
      const a = await aVersion(config.id, 3000);
      const b = await aVersion(config.id, 2000);
      await aVersion(config.id, 5000, { isActive: false });
      const assign = async (r: number) => {
        nextRandom = r;
        return (await policy.onConversationCreate(app)).configVersionId;
      };
      expect(await assign(0.1)).toBe(a.id);
      expect(await assign(0.45)).toBe(b.id);
      expect(await assign(0.6)).toBeNull();
    });

    it('assigns nothing without a default config or versions', async () => {
      expect((await policy.onConversationCreate(app)).configVersionId).toBeNull();
      await aConfig();
      expect((await policy.onConversationCreate(app)).configVersionId).toBeNull();
    });
  });

  describe('preparing a turn', () => {
    it('takes provider, model and settings from the default config, request settings on top', async () => {
      await aConfig();
      const plan = aPlan({ settings: { temperature: 0.5 } });
      await policy.prepare(aTurn(), plan);
      expect(plan).toMatchObject({ provider: 'provider_b', model: 'claude-3-5-haiku-20241022', settings: { temperature: 0.5, maxTokens: 500, topP: 0.9 } });
    });

    it("uses the conversation's version over the default config, with the version's system prompt", async () => {
      const config = await aConfig({ settings: { temperature: 0.2, maxTokens: 500, topP: 0.9, systemPrompt: 'Config prompt' } });
      const version = await aVersion(config.id, 5000);
      const plan = aPlan();
      await policy.prepare(aTurn(version.id), plan);
      expect(plan).toMatchObject({ provider: 'provider_c', model: 'gemini-2.0-flash', settings: { temperature: 0.8, maxTokens: 300, systemPrompt: 'Version prompt' } });
    });

    it('falls back to the default config when the assigned version was deleted', async () => {
      const config = await aConfig();
      const version = await aVersion(config.id, 5000);
      await world.versions.delete(version.id);
      const plan = aPlan();
      await policy.prepare(aTurn(version.id), plan);
      expect(plan.provider).toBe('provider_b');
    });

    it('leaves provider, model and settings alone when the request chose its own model', async () => {
      await aConfig({ settings: { temperature: 0.2, maxTokens: 500, topP: 0.9, systemPrompt: 'Config prompt' } });
      const plan = aPlan({ provider: 'provider_a', model: 'gpt-4o' });
      await policy.prepare(aTurn(), plan);
      expect(plan).toEqual({ provider: 'provider_a', model: 'gpt-4o', settings: { systemPrompt: 'Config prompt' } });
    });

    it("uses the default template's content when no config sets a system prompt, and the request's own prompt over both", async () => {
      await aConfig();
      await world.templates.create({ applicationId: app.id, name: 'T', content: 'Template prompt', variables: [], makeDefault: true });
      const plain = aPlan();
      await policy.prepare(aTurn(), plain);
      expect(plain.settings.systemPrompt).toBe('Template prompt');
      const own = aPlan({ settings: { systemPrompt: 'Request prompt' } });
      await policy.prepare(aTurn(), own);
      expect(own.settings.systemPrompt).toBe('Request prompt');
    });

    it('uses the default template without any config, and sets no prompt when there is none', async () => {
      const none = aPlan();
      await policy.prepare(aTurn(), none);
      expect(none).toEqual({ settings: {} });
      await world.templates.create({ applicationId: app.id, name: 'T', content: 'Only a template', variables: [], makeDefault: true });
      const templated = aPlan();
      await policy.prepare(aTurn(), templated);
      expect(templated).toEqual({ settings: { systemPrompt: 'Only a template' } });
    });

    it("refuses request settings out of range for the config's provider before the engine is called", async () => {
      await aConfig({ provider: 'provider_c', modelId: 'gemini-2.0-flash', settings: { temperature: 0.2, maxTokens: 500, topP: 0.9 } });
      await expect(policy.prepare(aTurn(), aPlan({ settings: { temperature: 1.5 } }))).rejects.toBeInstanceOf(ValidationError);
    });
  });

  describe('settling a turn', () => {
    it('adds answers to the version metrics: running averages over successes, errors in the rate', async () => {
      const config = await aConfig();
      const version = await aVersion(config.id, 5000);
      const turn = aTurn(version.id);
      await policy.settle(turn, aPlan(), { ok: true, latencyMs: 100, usage: usage(10) });
      await policy.settle(turn, aPlan(), { ok: true, latencyMs: 300, usage: usage(30) });
      await policy.settle(turn, aPlan(), { ok: false });
      await policy.settle(turn, aPlan(), { ok: false, error: new UpstreamError('provider_a failed') });
      expect((await world.versions.findById(version.id))!.counters).toEqual({ requestCount: 4, errorCount: 2, avgLatencyMs: 200, avgTokensUsed: 20 });
    });

    it('does not count turns refused before any provider was asked', async () => {
      const config = await aConfig();
      const version = await aVersion(config.id, 5000);
      await policy.settle(aTurn(version.id), aPlan(), { ok: false, error: new PaymentRequiredError('Add your own key') });
      await policy.settle(aTurn(version.id), aPlan(), { ok: false, error: ValidationError.field('content', 'content is required') });
      expect((await world.versions.findById(version.id))!.counters.requestCount).toBe(0);
    });

    it('records nothing for conversations without a version when no A/B test runs', async () => {
      const config = await aConfig({ makeDefault: true });
      const plan = aPlan();
      await policy.prepare(aTurn(null), plan);
      await expect(policy.settle(aTurn(null), plan, { ok: true, latencyMs: 1, usage: usage(2) })).resolves.toBeUndefined();
      expect((await world.configs.controlCounters(config.id)).requestCount).toBe(0);
    });

    it("adds the control arm's answers (the default config's own share) to the config's metrics, as a version's", async () => {
      const config = await aConfig({ makeDefault: true });
      const version = await aVersion(config.id, 5000);
      for (const outcome of [
        { ok: true, latencyMs: 100, usage: usage(10) },
        { ok: true, latencyMs: 300, usage: usage(30) },
        { ok: false, error: new UpstreamError('provider_b failed') },
        { ok: false, error: new PaymentRequiredError('Add your own key') },
      ] as const) {
        const plan = aPlan();
        await policy.prepare(aTurn(null), plan);
        await policy.settle(aTurn(null), plan, outcome);
      }
      expect(await world.configs.controlCounters(config.id)).toEqual({ requestCount: 3, errorCount: 1, avgLatencyMs: 200, avgTokensUsed: 20 });
      // The version's own turns stay the version's.
      const versionPlan = aPlan();
      await policy.prepare(aTurn(version.id), versionPlan);
      await policy.settle(aTurn(version.id), versionPlan, { ok: true, latencyMs: 50, usage: usage(5) });
      expect((await world.versions.findById(version.id))!.counters.requestCount).toBe(1);
      expect((await world.configs.controlCounters(config.id)).requestCount).toBe(3);
    });

    it('reports a failure to record metrics instead of failing the answer', async () => {
      const config = await aConfig();
      const version = await aVersion(config.id, 5000);
      world.versions.recordOutcome = async () => {
        throw new Error('database went away');
      };
      await expect(policy.settle(aTurn(version.id), aPlan(), { ok: true, latencyMs: 1, usage: usage(2) })).resolves.toBeUndefined();
      expect(metricsErrors).toHaveLength(1);
    });
  });
});
