import { DATABASE_KINDS } from '../../support/test-database';
import { readSseEvents, postStream } from '../../support/sse';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, withKey } from '../public-api/public-api-support';
import { docExample } from '../../support/plugins/plugin-examples';

async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The two example plugins of docs/plugins.md, end to end: dashboard chat, public API, streams, KV, endpoint, cron. */
describe.each(DATABASE_KINDS)('example plugins from docs/plugins.md (%s)', (database) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;

  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true, env: { CACHE_TTL_MS: '0' } });
    owner = await anOwnerWithKey(stack);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator!.reset());

  async function installExample(name: 'profanity-filter' | 'conversation-counter', settings: Record<string, unknown> = {}, appId = owner.app.id) {
    const example = docExample(name);
    const created = await stack.client.post('/api/plugins', { ...example, manifest: { ...example.manifest, name: `${name}-${Math.random().toString(36).slice(2, 7)}` } }, { token: owner.token });
    expect(created.status).toBe(201);
    const installed = await stack.client.post(`/api/applications/${appId}/plugins`, { pluginId: created.body.id, settings }, { token: owner.token });
    expect(installed.status).toBe(201);
    const activated = await stack.client.put(`/api/applications/${appId}/plugins/${installed.body.id}/activate`, undefined, { token: owner.token });
    expect(activated.status).toBe(200);
    return { pluginId: created.body.id as string, installationId: installed.body.id as string };
  }
  const lastPrompt = () => JSON.stringify(stack.emulator!.requests.at(-1)!.body);

  describe('profanity filter', () => {
    let filter: { installationId: string };
    beforeAll(async () => {
      filter = await installExample('profanity-filter', { words: ['darn', 'heck'] });
    });

    it('masks words in the dashboard chat before the provider sees them', async () => {
      const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
      const res = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'What the heck is this darn thing?' }, { token: owner.token });
      expect(res.status).toBe(200);
      expect(lastPrompt()).toContain('What the **** is this **** thing?');
      expect(lastPrompt()).not.toMatch(/heck|darn/);
    });

    it('masks words on the public API and in a public stream', async () => {
      const res = await stack.client.post('/api/v1/chat', { message: 'darn it', applicationId: owner.app.id }, withKey(owner.key.key));
      expect(res.status).toBe(200);
      expect(lastPrompt()).toContain('**** it');
      const stream = await postStream(`${stack.client.baseUrl}/api/v1/chat/stream`, { message: 'oh heck', applicationId: owner.app.id }, { 'X-API-Key': owner.key.key });
      expect(stream.status).toBe(200);
      const events = await readSseEvents(stream);
      expect(events.at(-1)).toMatchObject({ type: 'done' });
      expect(lastPrompt()).toContain('oh ****');
    });

    it('masks words in a dashboard stream', async () => {
      const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
      const stream = await postStream(`${stack.client.baseUrl}/api/conversations/${conversation.body.id}/stream`, { content: 'heck yes' }, { Authorization: `Bearer ${owner.token}` });
      expect((await readSseEvents(stream)).at(-1)).toMatchObject({ type: 'done' });
      expect(lastPrompt()).toContain('**** yes');
    });

    it('in reject mode answers 422 with the reason and calls no provider', async () => {
      const strict = await anOwnerWithKey(stack);
      const example = docExample('profanity-filter');
      const plugin = (await stack.client.post('/api/plugins', example, { token: strict.token })).body;
      const installed = (await stack.client.post(`/api/applications/${strict.app.id}/plugins`, { pluginId: plugin.id, settings: { mode: 'reject' } }, { token: strict.token })).body;
      await stack.client.put(`/api/applications/${strict.app.id}/plugins/${installed.id}/activate`, undefined, { token: strict.token });
      stack.emulator!.reset();
      const res = await stack.client.post('/api/v1/chat', { message: 'darn', applicationId: strict.app.id }, withKey(strict.key.key));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ statusCode: 422, message: 'Your message contains words this assistant does not accept.', error: 'Unprocessable Entity' });
      expect(stack.emulator!.requests).toHaveLength(0);
      const stream = await postStream(`${stack.client.baseUrl}/api/v1/chat/stream`, { message: 'heck', applicationId: strict.app.id }, { 'X-API-Key': strict.key.key });
      expect(stream.status).toBe(422);
      expect((await stack.client.post('/api/v1/chat', { message: 'fine words', applicationId: strict.app.id }, withKey(strict.key.key))).status).toBe(200);
    });

    it('counts its calls on the installation', async () => {
      const list = await eventually(
        async () => (await stack.client.get(`/api/applications/${owner.app.id}/plugins`, { token: owner.token })).body,
        (l: { id: string; counters: { calls: number } }[]) => (l.find((i) => i.id === filter.installationId)?.counters.calls ?? 0) >= 4,
      );
      expect(list.find((i: { id: string }) => i.id === filter.installationId)).toMatchObject({ state: 'activated', lastError: null, counters: { failures: 0 } });
    });
  });

  describe('conversation counter', () => {
    let counter: { pluginId: string; installationId: string };
    beforeAll(async () => {
      // Every second (6-field cron), so the test sees ticks; the guide's default is daily.
      counter = await installExample('conversation-counter', { summarySchedule: '* * * * * *' });
    });
    const stats = (headers: Record<string, string>, query = `?applicationId=${owner.app.id}`) =>
      stack.client.get(`/api/plugins/${counter.pluginId}/endpoints/stats${query}`, { headers });

    it('counts answers in KV and serves them from its endpoint to the owner and API keys only', async () => {
      const first = await stack.client.post('/api/v1/chat', { message: 'one', applicationId: owner.app.id }, withKey(owner.key.key));
      await stack.client.post('/api/v1/chat', { message: 'two', applicationId: owner.app.id, conversationId: first.body.conversationId }, withKey(owner.key.key));
      await stack.client.post('/api/v1/chat', { message: 'other', applicationId: owner.app.id }, withKey(owner.key.key));
      const res = await eventually(
        () => stats({ Authorization: `Bearer ${owner.token}` }),
        (r) => r.status === 200 && r.body.conversations >= 2 && r.body.busiest[0]?.answers >= 2,
      );
      expect(res.status).toBe(200);
      expect(res.body.busiest[0]).toMatchObject({ conversationId: first.body.conversationId, answers: 2, kind: 'conversation' });
      expect((await stats(withKey(owner.key.key).headers)).status).toBe(200);
      expect((await stack.client.get(`/api/plugins/${counter.pluginId}/endpoints/stats`, { headers: { 'X-Application-Id': owner.app.id, Authorization: `Bearer ${owner.token}` } })).status).toBe(200);

      expect((await stats({})).status).toBe(401);
      const stranger = await registerUser(stack.client);
      expect((await stats({ Authorization: `Bearer ${stranger.access_token}` })).status).toBe(404);
      expect((await stats({ Authorization: `Bearer ${owner.token}` }, '')).status).toBe(404);
      expect((await stack.client.get(`/api/plugins/${counter.pluginId}/endpoints/nope?applicationId=${owner.app.id}`, { token: owner.token })).status).toBe(404);
      expect((await stack.client.post(`/api/plugins/${counter.pluginId}/endpoints/stats?applicationId=${owner.app.id}`, {}, { token: owner.token })).status).toBe(404);
    });

    it('runs its cron job and records the runs in the installation log', async () => {
      const detail = await eventually(
        async () => (await stack.client.get(`/api/applications/${owner.app.id}/plugins/${counter.installationId}`, { token: owner.token })).body,
        (d: { runs: { kind: string }[] }) => d.runs.filter((r) => r.kind === 'cron').length >= 2,
      );
      const cronRuns = detail.runs.filter((r: { kind: string }) => r.kind === 'cron');
      expect(cronRuns.length).toBeGreaterThanOrEqual(2);
      expect(cronRuns[0]).toMatchObject({ name: 'summary', ok: true, error: null });
      const res = await stats({ Authorization: `Bearer ${owner.token}` });
      expect(res.body.lastSummary).toMatchObject({ conversations: expect.any(Number), runs: expect.any(Number) });
    });

    it('answers 502 when a public endpoint fails or answers too much, and passes request data to the handler', async () => {
      const source = `definePlugin({ endpoints: [
        { method: 'POST', path: '/echo/:id', handler: (req) => ({ status: 201, headers: { 'x-plugin': 'yes', 'set-cookie': 'no=1' }, body: { id: req.params.id, q: req.query.q, body: req.body, auth: req.headers.authorization ?? null, user: req.user ?? null } }) },
        { method: 'GET', path: '/huge', handler: () => ({ body: 'x'.repeat(900 * 1024) + 'y'.repeat(200 * 1024) }) },
        { method: 'GET', path: '/throws', handler: () => { throw new Error('nope'); } },
      ] })`;
      const plugin = (await stack.client.post('/api/plugins', { manifest: { name: 'echo-endpoints', version: '1.0.0', main: 'index.js' }, source }, { token: owner.token })).body;
      const installed = (await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId: plugin.id }, { token: owner.token })).body;
      await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.id}/activate`, undefined, { token: owner.token });
      const base = `/api/plugins/${plugin.id}/endpoints`;
      const echo = await stack.client.post(`${base}/echo/a%20b?q=1&applicationId=${owner.app.id}`, { hello: 'world' }, { token: owner.token });
      expect(echo.status).toBe(201);
      expect(echo.headers.get('x-plugin')).toBe('yes');
      expect(echo.headers.get('set-cookie')).toBeNull();
      expect(echo.body).toEqual({ id: 'a b', q: '1', body: { hello: 'world' }, auth: null, user: null });
      const huge = await stack.client.get(`${base}/huge?applicationId=${owner.app.id}`);
      expect(huge.status).toBe(502);
      expect(huge.body.message).toMatch(/over the limit of 1048576|more than 1 MB/);
      const throws = await stack.client.get(`${base}/throws?applicationId=${owner.app.id}`);
      expect(throws.status).toBe(502);
      expect(throws.body.message).toMatch(/nope/);
      expect((await stack.client.get(`${base}/throws?applicationId=${stack.config.port}`)).status).toBe(404);
    });

    it('stops answering and scheduling once deactivated, and keeps another application out', async () => {
      await stack.client.put(`/api/applications/${owner.app.id}/plugins/${counter.installationId}/deactivate`, undefined, { token: owner.token });
      expect((await stats({ Authorization: `Bearer ${owner.token}` })).status).toBe(404);
      const before = (await stack.client.get(`/api/applications/${owner.app.id}/plugins/${counter.installationId}`, { token: owner.token })).body.runs.length;
      await new Promise((r) => setTimeout(r, 2_200));
      const after = (await stack.client.get(`/api/applications/${owner.app.id}/plugins/${counter.installationId}`, { token: owner.token })).body.runs.length;
      expect(after).toBe(before);
    });
  });
});
