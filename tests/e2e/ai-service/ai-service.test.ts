import { PLATFORM_KEYS, startCoreApi, stopListening, userWithApplication, type TestStack } from '../../support/test-stack';
import { postStream, readSseEvents } from '../../support/sse';
import { TestClient } from '../../support/http-client';

describe('AI service (SPEC 4.4)', () => {
  let stack: TestStack;
  let ai: TestClient;
  let token: string;
  let appId: string;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, engine: 'remote' });
    ai = stack.ai!.client;
    token = stack.config.aiServiceToken;
    appId = (await userWithApplication(stack.client)).app.id;
  });
  afterAll(() => stack.close());
  const auth = () => ({ token });

  it('refuses every /api/ai call without its token, or with a wrong one', async () => {
    for (const path of ['/api/ai/providers', '/api/ai/conversations/by-app/' + appId]) {
      expect((await ai.get(path)).status).toBe(401);
      expect((await ai.get(path, { token: 'wrong-token-wrong-token' })).status).toBe(401);
    }
    expect((await ai.post('/api/ai/conversations', { applicationId: appId })).status).toBe(401);
  });

  it('serves health without a token', async () => {
    const res = await ai.get('/api/health');
    expect(res.body).toMatchObject({ status: 'healthy', service: 'ai-service' });
  });

  it('lists the four providers with their models', async () => {
    const res = await ai.get('/api/ai/providers', auth());
    expect(res.body.map((p: { id: string }) => p.id)).toEqual(['provider_a', 'provider_b', 'provider_c', 'provider_d']);
    expect(res.body.every((p: { platformKeyConfigured: boolean }) => p.platformKeyConfigured)).toBe(true);
    const models = await ai.get('/api/ai/providers/provider_b/models', auth());
    expect(models.body.length).toBeGreaterThan(0);
    expect((await ai.get('/api/ai/providers/provider_z/models', auth())).status).toBe(400);
  });

  it('creates, lists, reads and archives conversations of an application', async () => {
    const created = await ai.post('/api/ai/conversations', { applicationId: appId, title: 'Direct' }, auth());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ applicationId: appId, title: 'Direct', status: 'active' });
    const list = await ai.get(`/api/ai/conversations/by-app/${appId}`, auth());
    // A bare array with the total in X-Total-Count, as the core API's lists answer.
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((c: { id: string }) => c.id)).toContain(created.body.id);
    expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1);
    const answer = await ai.post(`/api/ai/conversations/${created.body.id}/messages`, { content: 'hello there', provider: 'provider_a', model: 'gpt-4o-mini' }, auth());
    expect(answer.status).toBe(200);
    const full = await ai.get(`/api/ai/conversations/${created.body.id}`, auth());
    expect(full.body.messages).toHaveLength(2);
    expect((await ai.delete(`/api/ai/conversations/${created.body.id}`, auth())).status).toBe(204);
    expect((await ai.get(`/api/ai/conversations/${created.body.id}`, auth())).body.status).toBe('archived');
  });

  it('answers 404 for an unknown application or conversation', async () => {
    expect((await ai.post('/api/ai/conversations', { applicationId: '00000000-0000-4000-8000-000000000000' }, auth())).status).toBe(404);
    expect((await ai.get('/api/ai/conversations/00000000-0000-4000-8000-000000000000', auth())).status).toBe(404);
  });

  it('uses the key passed in X-Provider-Key instead of the platform key', async () => {
    const conv = await ai.post('/api/ai/conversations', { applicationId: appId }, auth());
    await ai.post(`/api/ai/conversations/${conv.body.id}/messages`, { content: 'hi', provider: 'provider_b' }, { ...auth(), headers: { 'X-Provider-Key': 'sk-ant-users-own-key' } });
    expect(stack.emulator!.requests.at(-1)!.apiKey).toBe('sk-ant-users-own-key');
    await ai.post(`/api/ai/conversations/${conv.body.id}/messages`, { content: 'hi', provider: 'provider_b' }, auth());
    expect(stack.emulator!.requests.at(-1)!.apiKey).toBe(PLATFORM_KEYS.provider_b);
  });

  it('answers 424 naming the provider and the hint of a rejected X-Provider-Key, in a message and a stream', async () => {
    const conv = await ai.post('/api/ai/conversations', { applicationId: appId }, auth());
    const headers = { 'X-Provider-Key': 'sk-ant-rejected-key-LM12' };
    const res = await ai.post(`/api/ai/conversations/${conv.body.id}/messages`, { content: 'hi', provider: 'provider_b' }, { ...auth(), headers });
    expect(res.status).toBe(424);
    expect(res.body.message).toMatch(/^provider_b \(Anthropic\) rejected the API key ending in "LM12"/);
    const streamed = await postStream(`${stack.ai!.listening.url}/api/ai/conversations/${conv.body.id}/stream`, { content: 'hi', provider: 'provider_b' }, { Authorization: `Bearer ${token}`, ...headers });
    expect((await readSseEvents(streamed)).at(-1)).toMatchObject({ type: 'error', statusCode: 424 });
  });

  it('streams chunk events then done', async () => {
    const conv = await ai.post('/api/ai/conversations', { applicationId: appId }, auth());
    const res = await postStream(`${stack.ai!.listening.url}/api/ai/conversations/${conv.body.id}/stream`, { content: 'stream this please', provider: 'provider_c', model: 'gemini-1.5-flash' }, { Authorization: `Bearer ${token}` });
    const events = await readSseEvents(res);
    expect(events.at(-1).type).toBe('done');
    expect(events.at(-1).fullResponse).toBe(events.filter((e) => e.type === 'chunk').map((e) => e.content).join(''));
  });
});

describe('core API health with the AI service', () => {
  it('reports the AI service check, and degraded (not down) when it is gone', async () => {
    const stack = await startCoreApi({ providers: true, engine: 'remote' });
    try {
      const healthy = await stack.client.get('/api/health');
      expect(healthy.body).toMatchObject({ status: 'healthy', checks: { database: { status: 'up' }, 'ai-service': { status: 'up' } } });
      await stopListening(stack.ai!.listening);
      const degraded = await stack.client.get('/api/health');
      expect(degraded.status).toBe(200);
      expect(degraded.body).toMatchObject({ status: 'degraded', checks: { 'ai-service': { status: 'down', error: 'unreachable' } } });
    } finally {
      await stack.close();
    }
  });
});
