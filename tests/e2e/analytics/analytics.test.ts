import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_KINDS } from '../../support/test-database';
import { ADMIN_EMAIL, registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { createKey, withKey } from '../public-api/public-api-support';

const METRICS_TOKEN = 'metrics-token-for-tests-0123';
const HEALTH_ADMIN = 'health-admin@example.com';
const OWN_KEY = 'sk-own-analytics-key-7788';
/** The operator's price for one model, over the catalogue's (MODEL_PRICES_FILE). */
const HAIKU = 'claude-3-5-haiku-20241022';
const HAIKU_PRICE = { inputPerMillion: 1.5, outputPerMillion: 7 };
/** The catalogue's price of provider_a's default model (core/ai/domain/model-catalog.ts, dated there). */
const CATALOGUE = { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 } } as Record<string, { inputPerMillion: number; outputPerMillion: number }>;

interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}
interface Turn {
  source: 'dashboard' | 'api' | 'widget';
  provider: string;
  model: string;
  keyKind: 'own' | 'platform';
  usage: Usage;
}

const today = () => new Date().toISOString().slice(0, 10);

describe.each(DATABASE_KINDS)('analytics, system health and metrics (%s)', (database) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof userWithApplication>>;
  let adminToken: string;
  const turns: Turn[] = [];
  const conversationIds: string[] = [];
  let failedTurns = 0;
  const db = <T>(sql: string, params: unknown[] = []) => stack.infra.dataSource.query(sql, params) as Promise<T>;

  const priceOf = (provider: string, model: string) => (provider === 'provider_b' && model === HAIKU ? HAIKU_PRICE : CATALOGUE[model]);
  const costOf = (list: Turn[]) =>
    list.reduce((n, t) => {
      const p = priceOf(t.provider, t.model)!;
      return n + (t.usage.promptTokens * p.inputPerMillion + t.usage.completionTokens * p.outputPerMillion) / 1e6;
    }, 0);
  const sum = (list: Turn[], k: keyof Usage) => list.reduce((n, t) => n + t.usage[k], 0);
  const read = (what: string, query: Record<string, string> = { applicationId: owner.app.id }, token = owner.token) =>
    stack.client.get(`/api/analytics/${what}?${new URLSearchParams(query)}`, { token });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prices-'));
    const pricesFile = join(dir, 'prices.json');
    writeFileSync(pricesFile, JSON.stringify({ provider_b: { [HAIKU]: HAIKU_PRICE } }));
    // A flush interval longer than the test: the counts reach the table only when a read asks for them.
    stack = await startCoreApi({ database, providers: true, env: { METRICS_TOKEN, MODEL_PRICES_FILE: pricesFile, ANALYTICS_FLUSH_MS: '3600000', ADMIN_EMAILS: `${ADMIN_EMAIL},${HEALTH_ADMIN}` } });
    adminToken = (await registerUser(stack.client, { email: HEALTH_ADMIN })).access_token;
    owner = await userWithApplication(stack.client, { name: 'Analytics App' });
    await stack.setPlan(owner.user.id, 'pro');

    const dashboard = async (conversationId: string, body: Record<string, unknown>, keyKind: Turn['keyKind']) => {
      const res = await stack.client.post(`/api/conversations/${conversationId}/messages`, body, { token: owner.token });
      expect(res.status).toBe(200);
      turns.push({ source: 'dashboard', provider: res.body.provider, model: res.body.model, keyKind, usage: res.body.usage });
      return res.body;
    };
    const conversation = async () => {
      const res = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
      conversationIds.push(res.body.id);
      return res.body.id as string;
    };
    const first = await conversation();
    await dashboard(first, { content: 'Hello there', provider: 'provider_a' }, 'platform');
    const answer = await dashboard(first, { content: 'Tell me more', provider: 'provider_a' }, 'platform');
    const second = await conversation();
    await dashboard(second, { content: 'Hi from B', provider: 'provider_b', model: HAIKU }, 'platform');

    const key = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
    const api = await stack.client.post('/api/v1/chat', { message: 'From a server', applicationId: owner.app.id }, withKey(key.key));
    expect(api.status).toBe(200);
    conversationIds.push(api.body.conversationId);
    turns.push({ source: 'api', provider: api.body.provider, model: api.body.model, keyKind: 'platform', usage: api.body.usage });
    for (let i = 0; i < 2; i++) {
      expect((await stack.client.post('/api/v1/widget/loaded', { applicationId: owner.app.id }, withKey(key.key, { 'X-Client': 'widget' }))).status).toBe(204);
    }
    const widget = await stack.client.post('/api/v1/chat', { message: 'From the widget', applicationId: owner.app.id }, withKey(key.key, { 'X-Client': 'widget' }));
    expect(widget.status).toBe(200);
    conversationIds.push(widget.body.conversationId);
    turns.push({ source: 'widget', provider: widget.body.provider, model: widget.body.model, keyKind: 'platform', usage: widget.body.usage });

    stack.emulator!.behaviour.failStatus = 500;
    expect((await stack.client.post(`/api/conversations/${second}/messages`, { content: 'Still there?', provider: 'provider_b', model: HAIKU }, { token: owner.token })).status).toBe(502);
    failedTurns++;
    stack.emulator!.reset();

    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token })).status).toBe(200);
    await dashboard(first, { content: 'On my own key now', provider: 'provider_a' }, 'own');
    const rated = await stack.client.post(`/api/conversations/${first}/messages/${answer.message.id}/rating`, { rating: 4 }, { token: owner.token });
    expect(rated.status).toBe(200);
  });
  afterAll(() => stack.close());

  it('writes no rollup row per request: the counts wait in memory for a flush (here, the first read)', async () => {
    const [{ n }] = await db<Array<{ n: string | number }>>(`SELECT count(*) AS n FROM analytics_daily`);
    expect(Number(n)).toBe(0);
    expect((await read('overview')).status).toBe(200);
    const [{ n: after }] = await db<Array<{ n: string | number }>>(`SELECT count(*) AS n FROM analytics_daily`);
    expect(Number(after)).toBeGreaterThan(0);
  });

  it('overview: exact counts, tokens, cost from the price table and error rate, by day, provider and source', async () => {
    const res = await read('overview');
    expect(res.status).toBe(200);
    const sent = turns.length + failedTurns;
    const tokens = { promptTokens: sum(turns, 'promptTokens'), completionTokens: sum(turns, 'completionTokens') };
    expect(res.body).toMatchObject({ applicationId: owner.app.id, from: expect.any(String), to: today(), pricesAsOf: '2025-06-01' });
    expect(res.body.totals).toMatchObject({
      conversations: 4,
      messagesSent: sent,
      messagesReceived: turns.length,
      messages: sent + turns.length,
      ...tokens,
      totalTokens: tokens.promptTokens + tokens.completionTokens,
      errors: failedTurns,
      errorRate: Math.round((failedTurns / sent) * 10_000) / 10_000,
      apiCalls: 4,
      widgetLoads: 2,
      unpricedTokens: 0,
    });
    expect(res.body.totals.estimatedCostUsd).toBeCloseTo(costOf(turns), 9);
    expect(res.body.byDay).toEqual([expect.objectContaining({ day: today(), conversations: 4, messagesSent: sent })]);
    const bySource = Object.fromEntries(res.body.bySource.map((s: { source: string }) => [s.source, s]));
    expect(bySource.dashboard).toMatchObject({ conversations: 2, messagesSent: 5, messagesReceived: 4, errors: 1, apiCalls: 0 });
    expect(bySource.api).toMatchObject({ conversations: 1, messagesSent: 1, apiCalls: 1, widgetLoads: 0 });
    expect(bySource.widget).toMatchObject({ conversations: 1, messagesSent: 1, apiCalls: 3, widgetLoads: 2 });
    const byProvider = Object.fromEntries(res.body.byProvider.map((p: { provider: string }) => [p.provider, p]));
    const b = turns.filter((t) => t.provider === 'provider_b');
    expect(byProvider.provider_b).toMatchObject({ messagesSent: 2, messagesReceived: 1, errors: 1, promptTokens: sum(b, 'promptTokens') });
    expect(byProvider.provider_b.estimatedCostUsd).toBeCloseTo(costOf(b), 9);
  });

  it('usage: the same counters per day, and all of the owner\'s applications without applicationId', async () => {
    const one = await read('usage');
    const all = await read('usage', {});
    expect(one.status).toBe(200);
    expect(all.status).toBe(200);
    expect(all.body.applicationId).toBeNull();
    expect(all.body.totals).toEqual(one.body.totals);
    expect(one.body.byDay[0]).toMatchObject({ day: today(), messagesReceived: turns.length, promptTokens: sum(turns, 'promptTokens') });
    // Another owner sees nothing of it.
    const stranger = await registerUser(stack.client);
    const theirs = await read('usage', {}, stranger.access_token);
    expect(theirs.body.totals).toMatchObject({ conversations: 0, messagesSent: 0, totalTokens: 0, estimatedCostUsd: 0 });
    // A period without activity.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const quiet = await read('usage', { applicationId: owner.app.id, from: yesterday, to: yesterday });
    expect(quiet.body.totals).toMatchObject({ conversations: 0, messagesSent: 0 });
  });

  it('conversations: length, duration and ratings of the stored conversations', async () => {
    const stored = await Promise.all(conversationIds.map((id) => stack.client.get(`/api/conversations/${id}`, { token: owner.token })));
    const lengths = stored.map((s) => s.body.messages.length as number);
    const res = await read('conversations');
    expect(res.status).toBe(200);
    const total = lengths.reduce((n, l) => n + l, 0);
    expect(res.body.totals).toMatchObject({
      conversations: 4,
      messages: total,
      averageMessages: Math.round((total / 4) * 100) / 100,
      longestMessages: Math.max(...lengths),
      ratings: { count: 1, average: 4, distribution: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 0 } },
    });
    expect(res.body.totals.averageDurationSeconds).toBeGreaterThanOrEqual(0);
    expect(res.body.bySource.find((s: { source: string }) => s.source === 'dashboard')).toMatchObject({ conversations: 2 });
    expect(res.body.byProvider.map((p: { provider: string }) => p.provider)).toEqual(['provider_a', 'provider_b']);
  });

  it('costs: by provider and model, own keys apart from platform keys, at the operator\'s price where given', async () => {
    const res = await read('costs');
    expect(res.status).toBe(200);
    const own = turns.filter((t) => t.keyKind === 'own');
    const platform = turns.filter((t) => t.keyKind === 'platform');
    expect(res.body.totals.estimatedCostUsd).toBeCloseTo(costOf(turns), 9);
    expect(res.body.totals.ownKeyCostUsd).toBeCloseTo(costOf(own), 9);
    expect(res.body.totals.platformKeyCostUsd).toBeCloseTo(costOf(platform), 9);
    const haiku = res.body.byModel.find((m: { model: string }) => m.model === HAIKU);
    expect(haiku).toMatchObject({ provider: 'provider_b', keyKind: 'platform', price: HAIKU_PRICE });
    const ownRow = res.body.byModel.find((m: { keyKind: string }) => m.keyKind === 'own');
    expect(ownRow).toMatchObject({ provider: 'provider_a', promptTokens: sum(own, 'promptTokens'), completionTokens: sum(own, 'completionTokens'), price: CATALOGUE[own[0]!.model] });
    expect(res.body.bySource.map((s: { source: string }) => s.source)).toEqual(['dashboard', 'widget', 'api']);
  });

  it('refuses bad queries with 400, another owner\'s application with 404 and no session with 401', async () => {
    const bad: Array<Record<string, string>> = [{ from: '2026-13-01' }, { from: 'yesterday' }, { to: '2026-02-30' }, { from: '2026-05-02', to: '2026-05-01' }, { from: '2024-01-01', to: '2026-01-01' }];
    for (const query of bad) {
      const res = await read('overview', { applicationId: owner.app.id, ...query });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    const stranger = await userWithApplication(stack.client);
    for (const what of ['overview', 'usage', 'conversations', 'costs']) {
      expect((await read(what, { applicationId: owner.app.id }, stranger.token)).status).toBe(404);
      expect((await read(what, { applicationId: 'not-an-id' }, stranger.token)).status).toBe(404);
      expect((await stack.client.get(`/api/analytics/${what}`)).status).toBe(401);
    }
  });

  it('widget loads: 204 for the key\'s application, 400/401/403 otherwise', async () => {
    const mine = await createKey(stack.client, owner.token, { applicationId: null });
    expect((await stack.client.post('/api/v1/widget/loaded', {}, withKey(mine.key))).status).toBe(400);
    expect((await stack.client.post('/api/v1/widget/loaded', { applicationId: 'nope' }, withKey(mine.key))).status).toBe(400);
    expect((await stack.client.post('/api/v1/widget/loaded', { applicationId: owner.app.id })).status).toBe(401);
    const stranger = await userWithApplication(stack.client);
    expect((await stack.client.post('/api/v1/widget/loaded', { applicationId: stranger.app.id }, withKey(mine.key))).status).toBe(403);
    // A page on an origin the application does not allow.
    expect((await stack.client.post('/api/v1/widget/loaded', { applicationId: owner.app.id }, withKey(mine.key, { Origin: 'https://elsewhere.example' }))).status).toBe(403);
  });

  describe('system health', () => {
    it('reports every component with its latency and the status the documented rule gives (admins only)', async () => {
      const res = await stack.client.get('/api/system-health', { token: adminToken });
      expect(res.status).toBe(200);
      const c = res.body.components;
      expect(Object.keys(c).sort()).toEqual(['aiService', 'circuitBreakers', 'database', 'disk', 'jobQueues', 'marketplace', 'providers', 'redis']);
      for (const component of Object.values(c) as Array<{ latencyMs: number; status: string }>) expect(typeof component.latencyMs).toBe('number');
      expect(c.database).toMatchObject({ status: 'up', critical: true });
      expect(c.marketplace.status).toBe('not_configured');
      expect(c.aiService.status).toBe('up');
      // No provider key's breaker has opened: every circuit closed.
      expect(c.circuitBreakers.status).toBe('up');
      expect(c.disk.details).toMatchObject({ freeBytes: expect.any(Number), totalBytes: expect.any(Number) });
      expect(c.jobQueues.details).toMatchObject({ backlog: expect.any(Number), failed: expect.any(Number), eventOutboxBacklog: expect.any(Number) });
      // provider_b failed one of its two calls: degraded; provider_a answered all of its calls.
      expect(c.providers.details.providers.provider_a).toMatchObject({ status: 'up', failedCalls: 0 });
      expect(c.providers.details.providers.provider_b).toMatchObject({ status: 'degraded', recentCalls: 2, failedCalls: 1 });
      const statuses = Object.values(c) as Array<{ status: string; critical: boolean }>;
      const expected = statuses.some((s) => s.critical && s.status === 'down') ? 'down' : statuses.some((s) => ['down', 'degraded'].includes(s.status)) ? 'degraded' : 'healthy';
      expect(res.body.status).toBe(expected);
      expect(res.body.status).toBe('degraded');
    });

    it('is 403 for a user and 401 without a session; /api/health stays public', async () => {
      expect((await stack.client.get('/api/system-health', { token: owner.token })).status).toBe(403);
      expect((await stack.client.get('/api/system-health')).status).toBe(401);
      expect((await stack.client.get('/api/health')).status).toBe(200);
    });
  });

  describe('/metrics', () => {
    it('needs the metrics token', async () => {
      expect((await stack.client.get('/metrics')).status).toBe(401);
      expect((await stack.client.get('/metrics', { token: 'wrong-token-wrong-token' })).status).toBe(401);
    });

    it('serves request, chat turn, provider error and queue depth metrics in the Prometheus format', async () => {
      await read('overview');
      const res = await stack.client.get('/metrics', { token: METRICS_TOKEN });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/api\/analytics\/overview",status="200"\} \d+/);
      expect(res.text).toMatch(/http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/api\/analytics\/overview"\} \d+/);
      expect(res.text).toContain('chat_turns_total{source="dashboard",outcome="completed",provider="provider_a"} 3');
      expect(res.text).toContain('chat_turns_total{source="dashboard",outcome="failed",provider="provider_b"} 1');
      expect(res.text).toContain('provider_errors_total{provider="provider_b"} 1');
      expect(res.text).toMatch(/job_queue_depth\{queue="event-outbox",state="waiting"\} \d+/);
    });
  });
});
