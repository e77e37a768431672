import { CHAT_TOKENS } from '../../../apps/shared/modules/chat-engine.tokens';
import { TOKENS } from '../../../apps/shared/tokens';
import { InProcessChatEngine } from '../../../core/ai/use-cases/in-process-chat-engine';
import { CreateConversationUseCase } from '../../../core/conversations/use-cases/create-conversation.use-case';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { systemClock } from '../../../core/shared/clock.port';
import { postStream, readSseEvents } from '../../support/sse';
import { DATABASE_KINDS } from '../../support/test-database';
import { PLATFORM_KEYS, registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

type Session = Awaited<ReturnType<typeof registerUser>>;

describe.each(DATABASE_KINDS)('core API: model configs, A/B versions and ratings (%s)', (database) => {
  let stack: TestStack;
  /** On Enterprise: any number of applications, answered with the platform keys. */
  let owner: Session;
  /** On Free, without keys: its chats are refused with 402. */
  let stranger: Session;
  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true });
    owner = await registerUser(stack.client);
    stranger = await registerUser(stack.client);
    await stack.setPlan(owner.user.id, 'enterprise');
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator!.reset());

  const db = <T = any>(sql: string, params: unknown[] = []) => stack.infra.dataSource.query(sql, params) as Promise<T[]>;

  /** A fresh application of the owner (or of another session), with the token to use it. */
  async function anApp(session: Session = owner) {
    const token = session.access_token;
    const app = await stack.client.post('/api/applications', { name: 'Model config app' }, { token });
    expect(app.status).toBe(201);
    return { token, app: app.body as { id: string }, user: session.user };
  }

  const createConfig = (token: string, body: Record<string, unknown>) => stack.client.post('/api/model-configs', body, { token });
  const configsOf = async (token: string, applicationId: string) => (await stack.client.get(`/api/model-configs?applicationId=${applicationId}`, { token })).body as any[];

  describe('configs', () => {
    it('creates, reads, lists, updates and deletes configs, the first becoming the default', async () => {
      const { token, app } = await anApp();
      const first = await createConfig(token, { applicationId: app.id, displayName: 'Precise', provider: 'provider_a', modelId: 'gpt-4o', settings: { temperature: 0.1 } });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        _id: expect.any(String),
        applicationId: app.id,
        name: 'Precise',
        provider: 'provider_a',
        modelId: 'gpt-4o',
        isDefault: true,
        settings: { temperature: 0.1, maxTokens: 2048, topP: 1 },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const second = await createConfig(token, { applicationId: app.id, name: 'Claude', provider: 'provider_b' });
      expect(second.body).toMatchObject({ isDefault: false, modelId: 'claude-3-5-sonnet-20241022' });
      expect((await stack.client.get(`/api/model-configs/${second.body._id}`, { token })).body.name).toBe('Claude');
      expect((await configsOf(token, app.id)).map((c) => c.name)).toEqual(['Precise', 'Claude']);

      const updated = await stack.client.put(`/api/model-configs/${second.body._id}`, { settings: { temperature: 1.2, systemPrompt: 'Be kind.' } }, { token });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Claude', provider: 'provider_b', settings: { temperature: 1.2, systemPrompt: 'Be kind.', maxTokens: 2048 } });

      expect((await stack.client.delete(`/api/model-configs/${second.body._id}`, { token })).status).toBe(204);
      expect((await stack.client.get(`/api/model-configs/${second.body._id}`, { token })).status).toBe(404);
    });

    it('requires applicationId to list, and answers errors in the spec body', async () => {
      const { token } = await anApp();
      const res = await stack.client.get('/api/model-configs', { token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('applicationId') });
      const missing = await stack.client.get('/api/model-configs/00000000-0000-4000-8000-000000000000', { token });
      expect(missing.body).toEqual({ statusCode: 404, message: 'Model config not found', error: 'Not Found' });
      expect((await stack.client.get('/api/model-configs?applicationId=x')).status).toBe(401);
    });

    it.each([
      ['provider_a', 'gpt-4o', { temperature: 2.5 }, 'settings.temperature'],
      ['provider_b', 'claude-3-5-sonnet-20241022', { maxTokens: 8193 }, 'settings.maxTokens'],
      ['provider_b', 'claude-3-opus-20240229', { maxTokens: 4097 }, 'settings.maxTokens'],
      ['provider_c', 'gemini-2.0-flash', { temperature: 1.5 }, 'settings.temperature'],
      ['provider_d', 'meta-llama/Llama-3.1-8B-Instruct', { topP: 1.5 }, 'settings.topP'],
      ['provider_a', 'gpt-4o', { frequencyPenalty: 2.1 }, 'settings.frequencyPenalty'],
      ['provider_a', 'gpt-4o', { presencePenalty: -2.1 }, 'settings.presencePenalty'],
      ['provider_a', 'gpt-4o', { maxTokens: 0 }, 'settings.maxTokens'],
      ['provider_x', 'gpt-4o', {}, 'provider'],
      ['provider_a', 'claude-3-5-sonnet-20241022', {}, 'modelId'],
    ])('answers 400 for %s %s with %j, naming %s', async (provider, modelId, settings, path) => {
      const { token, app } = await anApp();
      const res = await createConfig(token, { applicationId: app.id, name: 'X', provider, modelId, settings });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
      expect(await configsOf(token, app.id)).toEqual([]);
    });

    it('accepts the edges of every range, per provider', async () => {
      const { token, app } = await anApp();
      const edges = [
        ['provider_a', 'gpt-4', { temperature: 2, maxTokens: 8192, topP: 0, frequencyPenalty: -2, presencePenalty: 2 }],
        ['provider_b', 'claude-3-haiku-20240307', { temperature: 0, maxTokens: 4096 }],
        ['provider_c', 'gemini-2.0-flash', { temperature: 1, maxTokens: 1 }],
      ] as const;
      for (const [provider, modelId, settings] of edges) {
        expect((await createConfig(token, { applicationId: app.id, name: provider, provider, modelId, settings })).status).toBe(201);
      }
    });

    it('answers 409 when deleting the default until another config is the default', async () => {
      const { token, app } = await anApp();
      const a = (await createConfig(token, { applicationId: app.id, name: 'A', provider: 'provider_a' })).body;
      const b = (await createConfig(token, { applicationId: app.id, name: 'B', provider: 'provider_a' })).body;
      const refused = await stack.client.delete(`/api/model-configs/${a._id}`, { token });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      const switched = await stack.client.patch(`/api/model-configs/${b._id}/default`, undefined, { token });
      expect(switched.body).toMatchObject({ _id: b._id, isDefault: true });
      expect((await stack.client.get(`/api/model-configs/${a._id}`, { token })).body.isDefault).toBe(false);
      expect((await stack.client.delete(`/api/model-configs/${a._id}`, { token })).status).toBe(204);
    });

    it('leaves exactly one default after concurrent default switches', async () => {
      const { token, app } = await anApp();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await createConfig(token, { applicationId: app.id, name: `C${i}`, provider: 'provider_a' })).body._id);
      const switches = await Promise.all(Array.from({ length: 25 }, (_, i) => stack.client.patch(`/api/model-configs/${ids[i % ids.length]}/default`, undefined, { token })));
      expect(switches.map((r) => r.status)).toEqual(Array(25).fill(200));
      expect((await configsOf(token, app.id)).filter((c) => c.isDefault)).toHaveLength(1);
      const [row] = await db(`SELECT count(*)::int AS n FROM model_configs WHERE application_id = $1 AND is_default`, [app.id]);
      expect(row.n).toBe(1);
    });

    it("answers 404 for another user's application, config and versions on every route", async () => {
      const mine = await anApp();
      const config = (await createConfig(mine.token, { applicationId: mine.app.id, name: 'Private', provider: 'provider_a' })).body;
      const version = (await stack.client.post(`/api/model-configs/${config._id}/versions`, { label: 'V' }, { token: mine.token })).body;
      const token = stranger.access_token;
      const base = `/api/model-configs/${config._id}`;
      const statuses = [
        (await stack.client.get(`/api/model-configs?applicationId=${mine.app.id}`, { token })).status,
        (await createConfig(token, { applicationId: mine.app.id, name: 'Mine', provider: 'provider_a' })).status,
        (await stack.client.get(base, { token })).status,
        (await stack.client.put(base, { name: 'Mine' }, { token })).status,
        (await stack.client.delete(base, { token })).status,
        (await stack.client.patch(`${base}/default`, undefined, { token })).status,
        (await stack.client.get(`${base}/versions`, { token })).status,
        (await stack.client.post(`${base}/versions`, { label: 'X' }, { token })).status,
        (await stack.client.put(`${base}/versions/${version._id}`, { trafficPercent: 1 }, { token })).status,
        (await stack.client.delete(`${base}/versions/${version._id}`, { token })).status,
        (await stack.client.get('/api/model-configs/not-a-uuid', { token })).status,
      ];
      expect(statuses).toEqual(Array(statuses.length).fill(404));
      expect((await stack.client.get(base, { token: mine.token })).body.name).toBe('Private');
    });
  });

  describe('versions', () => {
    async function aConfig() {
      const mine = await anApp();
      const config = (await createConfig(mine.token, { applicationId: mine.app.id, name: 'Base', provider: 'provider_a', modelId: 'gpt-4o' })).body;
      const versions = `/api/model-configs/${config._id}/versions`;
      return { ...mine, config, versions };
    }

    it('creates versions (201) with their metrics, and answers 409 for a duplicate label', async () => {
      const { token, app, config, versions } = await aConfig();
      const created = await stack.client.post(versions, { applicationId: app.id, version: 'v1', label: 'Warm', settings: { temperature: 1.1 }, trafficPercent: 30 }, { token });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        configId: config._id,
        applicationId: app.id,
        version: 'v1',
        label: 'Warm',
        provider: 'provider_a',
        modelId: 'gpt-4o',
        settings: { temperature: 1.1 },
        trafficPercent: 30,
        isActive: true,
        metrics: { requestCount: 0, avgLatencyMs: null, avgTokensUsed: null, errorRate: null, userSatisfactionScore: null },
      });
      const duplicate = await stack.client.post(versions, { label: 'warm' }, { token });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      expect((await stack.client.get(versions, { token })).body).toHaveLength(1);
    });

    it('keeps active versions at most 100% together (400), on create and on update', async () => {
      const { token, versions } = await aConfig();
      const a = (await stack.client.post(versions, { label: 'A', trafficPercent: 70 }, { token })).body;
      const over = await stack.client.post(versions, { label: 'B', trafficPercent: 30.01 }, { token });
      expect(over.status).toBe(400);
      expect(over.body.details[0].path).toBe('trafficPercent');
      const b = (await stack.client.post(versions, { label: 'B', trafficPercent: 30 }, { token })).body;
      expect((await stack.client.put(`${versions}/${a._id}`, { trafficPercent: 71 }, { token })).status).toBe(400);
      expect((await stack.client.put(`${versions}/${b._id}`, { isActive: false }, { token })).body.isActive).toBe(false);
      expect((await stack.client.put(`${versions}/${a._id}`, { trafficPercent: 100 }, { token })).body.trafficPercent).toBe(100);
      expect((await stack.client.post(versions, { label: 'C', trafficPercent: 101 }, { token })).status).toBe(400);
    });

    it('validates version settings against the version provider', async () => {
      const { token, versions } = await aConfig();
      const res = await stack.client.post(versions, { label: 'Gemini', provider: 'provider_c', settings: { temperature: 1.3 } }, { token });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['settings.temperature']);
    });

    it("redistributes a deleted version's share over the remaining active ones", async () => {
      const { token, versions } = await aConfig();
      for (const [label, trafficPercent] of [['A', 10], ['B', 20], ['C', 30]] as const) await stack.client.post(versions, { label, trafficPercent }, { token });
      await stack.client.post(versions, { label: 'Paused', trafficPercent: 40, isActive: false }, { token });
      const c = (await stack.client.get(versions, { token })).body.find((v: { label: string }) => v.label === 'C');
      expect((await stack.client.delete(`${versions}/${c._id}`, { token })).status).toBe(204);
      const shares = Object.fromEntries((await stack.client.get(versions, { token })).body.map((v: any) => [v.label, v.trafficPercent]));
      expect(shares).toEqual({ A: 20, B: 40, Paused: 40 });
    });

    it('splits 2,000 new conversations within 5 points of the configured shares', async () => {
      const { token, app, versions, user } = await aConfig();
      const a = (await stack.client.post(versions, { label: 'A', trafficPercent: 50 }, { token })).body;
      const b = (await stack.client.post(versions, { label: 'B', trafficPercent: 30 }, { token })).body;
      // The core API's own use case, runner and policies; only the engine is the in-process one over the
      // same database, which skips 2,000 internal HTTP round trips (the remote path is tested in "chat" below).
      const c = stack.core.container;
      const engine = new InProcessChatEngine({ conversations: c.get(CHAT_TOKENS.ConversationRepository), providers: c.get(CHAT_TOKENS.LlmProviderRegistry), clock: systemClock });
      const create = new CreateConversationUseCase({ applications: c.get(TOKENS.ApplicationRepository), engine, runner: c.get(ChatTurnRunner) });
      const actor = { userId: user.id, role: 'developer' as const };
      const total = 2000;
      for (let done = 0; done < total; done += 25) {
        await Promise.all(Array.from({ length: 25 }, () => create.execute({ applicationId: app.id }, actor)));
      }
      const rows = await db<{ id: string | null; n: number }>(
        `SELECT config_version_id AS id, count(*)::int AS n FROM conversations WHERE application_id = $1 GROUP BY config_version_id`,
        [app.id],
      );
      const percent = (id: string | null) => ((rows.find((r) => r.id === id)?.n ?? 0) / total) * 100;
      expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(total);
      expect(Math.abs(percent(a._id) - 50)).toBeLessThanOrEqual(5);
      expect(Math.abs(percent(b._id) - 30)).toBeLessThanOrEqual(5);
      expect(Math.abs(percent(null) - 20)).toBeLessThanOrEqual(5);
    }, 120_000);
  });

  describe('chat', () => {
    const newConversation = async (token: string, applicationId: string) => {
      const res = await stack.client.post('/api/conversations', { applicationId }, { token });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const send = (token: string, conversationId: string, body: Record<string, unknown>) => stack.client.post(`/api/conversations/${conversationId}/messages`, body, { token });
    const lastRequest = () => stack.emulator!.requests.at(-1)!;

    it("answers with the default config's provider, model, settings and system prompt", async () => {
      const { token, app } = await anApp();
      await createConfig(token, {
        applicationId: app.id,
        name: 'GPT',
        provider: 'provider_a',
        modelId: 'gpt-4o',
        settings: { temperature: 0.3, maxTokens: 321, topP: 0.8, presencePenalty: 0.5, systemPrompt: 'You are the config prompt.' },
      });
      const id = await newConversation(token, app.id);
      const res = await send(token, id, { content: 'Hello there' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provider: 'provider_a', model: 'gpt-4o' });
      expect(lastRequest()).toMatchObject({ provider: 'provider_a', apiKey: PLATFORM_KEYS.provider_a });
      expect(lastRequest().body).toMatchObject({ model: 'gpt-4o', max_completion_tokens: 321, temperature: 0.3, top_p: 0.8, presence_penalty: 0.5 });
      expect(lastRequest().body.messages[0]).toEqual({ role: 'system', content: 'You are the config prompt.' });
    });

    it("reaches another provider the same way, with that provider's own request shape", async () => {
      const { token, app } = await anApp();
      await createConfig(token, { applicationId: app.id, name: 'Claude', provider: 'provider_b', modelId: 'claude-3-5-haiku-20241022', settings: { maxTokens: 321, systemPrompt: 'Claude config prompt.' } });
      await send(token, await newConversation(token, app.id), { content: 'Hello there' });
      expect(lastRequest()).toMatchObject({ provider: 'provider_b', body: { model: 'claude-3-5-haiku-20241022', max_tokens: 321, system: 'Claude config prompt.' } });
    });

    it('lets a request override settings, or choose its own provider and model', async () => {
      const { token, app } = await anApp();
      await createConfig(token, { applicationId: app.id, name: 'GPT', provider: 'provider_a', settings: { temperature: 0.3, systemPrompt: 'Config prompt.' } });
      const id = await newConversation(token, app.id);
      await send(token, id, { content: 'Hi', temperature: 0.9 });
      expect(lastRequest().body).toMatchObject({ temperature: 0.9, messages: [{ role: 'system', content: 'Config prompt.' }, { role: 'user', content: 'Hi' }] });
      await send(token, id, { content: 'Hi again', provider: 'provider_b', model: 'claude-3-5-haiku-20241022', system_prompt: 'Request prompt.' });
      expect(lastRequest()).toMatchObject({ provider: 'provider_b', body: { model: 'claude-3-5-haiku-20241022', system: 'Request prompt.' } });
    });

    it("answers 400 before calling the provider when a request's setting is out of range for the config's provider", async () => {
      const { token, app } = await anApp();
      await createConfig(token, { applicationId: app.id, name: 'Gemini', provider: 'provider_c' });
      const id = await newConversation(token, app.id);
      const res = await send(token, id, { content: 'Hi', temperature: 1.5 });
      expect(res.status).toBe(400);
      expect(stack.emulator!.requests).toHaveLength(0);
    });

    it("uses the application's default prompt template when the config has no system prompt", async () => {
      const { token, app } = await anApp();
      await createConfig(token, { applicationId: app.id, name: 'GPT', provider: 'provider_a', modelId: 'gpt-4o' });
      await stack.client.post('/api/prompts', { applicationId: app.id, name: 'Not default', content: 'Wrong prompt.' }, { token });
      const template = await stack.client.post('/api/prompts', { applicationId: app.id, name: 'House style', content: 'You are the template prompt.', isDefault: true }, { token });
      expect(template.status).toBe(201);
      const id = await newConversation(token, app.id);
      await send(token, id, { content: 'Hello' });
      expect(lastRequest()).toMatchObject({ provider: 'provider_a', body: { model: 'gpt-4o' } });
      expect(lastRequest().body.messages[0]).toEqual({ role: 'system', content: 'You are the template prompt.' });
    });

    it('keeps a conversation on its assigned version for its whole life', async () => {
      const { token, app } = await anApp();
      const config = (await createConfig(token, { applicationId: app.id, name: 'GPT', provider: 'provider_a' })).body;
      const versions = `/api/model-configs/${config._id}/versions`;
      const v = (await stack.client.post(versions, { label: 'Claude', provider: 'provider_b', settings: { systemPrompt: 'Version prompt.' }, trafficPercent: 100 }, { token })).body;
      const id = await newConversation(token, app.id);
      await stack.client.put(`${versions}/${v._id}`, { trafficPercent: 0 }, { token });
      for (const content of ['One', 'Two']) {
        await send(token, id, { content });
        expect(lastRequest()).toMatchObject({ provider: 'provider_b', body: { system: 'Version prompt.' } });
      }
      const [row] = await db(`SELECT config_version_id FROM conversations WHERE id = $1`, [id]);
      expect(row.config_version_id).toBe(v._id);
      await send(token, await newConversation(token, app.id), { content: 'New one' });
      expect(lastRequest().provider).toBe('provider_a');
    });

    it('keeps version metrics equal to the values recomputed from the stored messages, ratings included', async () => {
      const { token, app } = await anApp();
      const config = (await createConfig(token, { applicationId: app.id, name: 'GPT', provider: 'provider_a' })).body;
      const versions = `/api/model-configs/${config._id}/versions`;
      const v = (await stack.client.post(versions, { label: 'All traffic', trafficPercent: 100 }, { token })).body;
      const first = await newConversation(token, app.id);
      const second = await newConversation(token, app.id);
      const answers: string[] = [];
      for (const content of ['Hello', 'How are you today?', 'Tell me something longer please']) {
        const res = await send(token, first, { content });
        expect(res.status).toBe(200);
        answers.push(res.body.message.id);
      }
      const streamed = await postStream(`${stack.listening.url}/api/conversations/${second}/stream`, { content: 'Stream this' }, { Authorization: `Bearer ${token}` });
      expect((await readSseEvents(streamed)).at(-1).type).toBe('done');
      stack.emulator!.behaviour.failStatus = 500;
      expect((await send(token, second, { content: 'This one fails' })).status).toBe(502);
      // The provider's own refusal (400) is a failed request of the version too: the provider was asked.
      stack.emulator!.behaviour.failStatus = 400;
      const refused = await send(token, second, { content: 'This one is refused' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^provider_a refused the request: /);
      stack.emulator!.behaviour.failStatus = undefined;
      await Promise.all([send(token, first, { content: 'Concurrent 1' }), send(token, second, { content: 'Concurrent 2' })]);

      const rate = (messageId: string, rating: number) => stack.client.post(`/api/conversations/${first}/messages/${messageId}/rating`, { rating }, { token });
      expect((await rate(answers[0]!, 5)).status).toBe(200);
      expect((await rate(answers[1]!, 1)).status).toBe(200);
      expect((await rate(answers[1]!, 2)).body).toEqual({ conversationId: first, messageId: answers[1], rating: 2 });

      const [expected] = await db(
        `SELECT count(*)::int AS "requestCount",
                count(*) FILTER (WHERE status <> 'complete')::int AS errors,
                coalesce(avg(latency_ms) FILTER (WHERE status = 'complete'), 0)::float8 AS "avgLatencyMs",
                coalesce(avg(total_tokens) FILTER (WHERE status = 'complete'), 0)::float8 AS "avgTokensUsed",
                avg(rating)::float8 AS "userSatisfactionScore"
         FROM messages WHERE role = 'assistant' AND config_version_id = $1`,
        [v._id],
      );
      expect(expected).toMatchObject({ requestCount: 8, errors: 2, userSatisfactionScore: 3.5 });
      const metrics = (await stack.client.get(versions, { token })).body[0].metrics;
      expect(metrics.requestCount).toBe(expected.requestCount);
      expect(metrics.errorRate).toBeCloseTo(expected.errors / expected.requestCount, 4);
      expect(metrics.avgLatencyMs).toBeCloseTo(expected.avgLatencyMs, 1);
      expect(metrics.avgTokensUsed).toBeCloseTo(expected.avgTokensUsed, 1);
      expect(metrics.userSatisfactionScore).toBe(3.5);
    });

    it("records the control arm (the config's own share) and shows it beside the versions at /metrics", async () => {
      const { token, app } = await anApp();
      const config = (await createConfig(token, { applicationId: app.id, name: 'GPT', provider: 'provider_a', modelId: 'gpt-4o-mini' })).body;
      // A conversation opened before the test began stays with the config: the control arm.
      const conversation = await newConversation(token, app.id);
      const v = (await stack.client.post(`/api/model-configs/${config._id}/versions`, { label: 'Challenger', provider: 'provider_b', trafficPercent: 60 }, { token })).body;
      const answers: string[] = [];
      for (const content of ['Hello', 'A longer question for the control arm']) {
        const res = await send(token, conversation, { content });
        expect(res.status).toBe(200);
        answers.push(res.body.message.id);
      }
      stack.emulator!.behaviour.failStatus = 500;
      expect((await send(token, conversation, { content: 'This one fails' })).status).toBe(502);
      stack.emulator!.behaviour.failStatus = undefined;
      await stack.client.post(`/api/conversations/${conversation}/messages/${answers[0]}/rating`, { rating: 4 }, { token });

      const res = await stack.client.get(`/api/model-configs/${config._id}/metrics`, { token });
      expect(res.status).toBe(200);
      const [expected] = await db(
        `SELECT coalesce(avg(latency_ms) FILTER (WHERE status = 'complete'), 0)::float8 AS "avgLatencyMs",
                coalesce(avg(total_tokens) FILTER (WHERE status = 'complete'), 0)::float8 AS "avgTokensUsed"
         FROM messages WHERE role = 'assistant' AND conversation_id = $1`,
        [conversation],
      );
      expect(res.body.control).toMatchObject({
        configId: config._id,
        name: 'GPT',
        provider: 'provider_a',
        modelId: 'gpt-4o-mini',
        isDefault: true,
        trafficPercent: 40,
        metrics: { requestCount: 3, errorRate: 0.3333, userSatisfactionScore: 4 },
      });
      expect(res.body.control.metrics.avgLatencyMs).toBeCloseTo(expected.avgLatencyMs, 1);
      expect(res.body.control.metrics.avgTokensUsed).toBeCloseTo(expected.avgTokensUsed, 1);
      expect(res.body.versions).toEqual([expect.objectContaining({ _id: v._id, trafficPercent: 60, metrics: expect.objectContaining({ requestCount: 0 }) })]);
      expect((await stack.client.get(`/api/model-configs/${config._id}/metrics`, { token: stranger.access_token })).status).toBe(404);
    });

    it('answers null, never a number, for a figure an arm has no data for (no 4.00 rating beside 0 requests)', async () => {
      const { token, app } = await anApp();
      const config = (await createConfig(token, { applicationId: app.id, name: 'GPT', provider: 'provider_a', modelId: 'gpt-4o-mini' })).body;
      // An answer of the config before any test began, rated: not an answer of the control arm.
      const conversation = await newConversation(token, app.id);
      const before = await send(token, conversation, { content: 'Hello' });
      expect(before.status).toBe(200);
      expect((await stack.client.post(`/api/conversations/${conversation}/messages/${before.body.message.id}/rating`, { rating: 4 }, { token })).status).toBeLessThan(300);
      const v = (await stack.client.post(`/api/model-configs/${config._id}/versions`, { label: 'Challenger', provider: 'provider_b', trafficPercent: 60 }, { token })).body;
      const none = { requestCount: 0, avgLatencyMs: null, avgTokensUsed: null, errorRate: null, userSatisfactionScore: null };
      expect(v.metrics).toEqual(none);

      const empty = (await stack.client.get(`/api/model-configs/${config._id}/metrics`, { token })).body;
      expect(empty.control.metrics).toEqual(none);
      expect(empty.versions[0].metrics).toEqual(none);
      expect((await stack.client.get(`/api/model-configs/${config._id}/versions`, { token })).body[0].metrics).toEqual(none);

      // A failed request is data for the error rate only: there is still no answer to time, count or rate.
      stack.emulator!.behaviour.failStatus = 500;
      expect((await send(token, conversation, { content: 'This one fails' })).status).toBe(502);
      stack.emulator!.behaviour.failStatus = undefined;
      const failed = (await stack.client.get(`/api/model-configs/${config._id}/metrics`, { token })).body;
      expect(failed.control.metrics).toEqual({ ...none, requestCount: 1, errorRate: 1 });
    });

    it('does not count a turn the plan refused before any provider was asked', async () => {
      const { token, app } = await anApp(stranger);
      const config = (await createConfig(token, { applicationId: app.id, name: 'GPT', provider: 'provider_a' })).body;
      await stack.client.post(`/api/model-configs/${config._id}/versions`, { label: 'All', trafficPercent: 100 }, { token });
      const id = await newConversation(token, app.id);
      expect((await send(token, id, { content: 'No key on the Free plan' })).status).toBe(402);
      expect((await stack.client.get(`/api/model-configs/${config._id}/versions`, { token })).body[0].metrics.requestCount).toBe(0);
    });
  });

  describe('ratings', () => {
    it('rates answers only, 1 to 5, in your own conversations', async () => {
      const { token, app } = await anApp();
      const id = (await stack.client.post('/api/conversations', { applicationId: app.id }, { token })).body.id;
      const answer = (await stack.client.post(`/api/conversations/${id}/messages`, { content: 'Rate me', provider: 'provider_a' }, { token })).body.message.id;
      const history = (await stack.client.get(`/api/conversations/${id}`, { token })).body.messages;
      const question = history.find((m: { role: string }) => m.role === 'user').id;
      const url = (messageId: string) => `/api/conversations/${id}/messages/${messageId}/rating`;
      expect((await stack.client.post(url(answer), { rating: 4 }, { token })).status).toBe(200);
      expect((await stack.client.get(`/api/conversations/${id}`, { token })).body.messages.find((m: { id: string }) => m.id === answer).rating).toBe(4);
      for (const rating of [0, 6, 2.5, '3']) expect((await stack.client.post(url(answer), { rating }, { token })).status).toBe(400);
      expect((await stack.client.post(url(question), { rating: 5 }, { token })).status).toBe(400);
      expect((await stack.client.post(url('00000000-0000-4000-8000-000000000000'), { rating: 5 }, { token })).status).toBe(404);
      expect((await stack.client.post(url(answer), { rating: 1 }, { token: stranger.access_token })).status).toBe(404);
      expect((await stack.client.post(url(answer), { rating: 5 })).status).toBe(401);
    });
  });
});
