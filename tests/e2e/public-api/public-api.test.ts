import { postStream, readSseEvents } from '../../support/sse';
import { DATABASE_KINDS } from '../../support/test-database';
import { PLATFORM_KEYS, registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, createKey, withKey } from './public-api-support';

describe.each(DATABASE_KINDS)('public API (%s)', (database) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, database });
    owner = await anOwnerWithKey(stack);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator!.reset());

  const chat = (key: string, body: unknown, path = '/api/v1/chat', headers: Record<string, string> = {}) =>
    stack.client.post(path, body, withKey(key, headers));
  const storedConversation = async (id: string) =>
    (await stack.infra.dataSource.query(`SELECT source, api_key_id FROM conversations WHERE id = $1`, [id]))[0] as { source: string; api_key_id: string };

  it.each(['/api/v1/chat', '/api/public/chat'])('%s answers from the provider in the non-streaming shape', async (path) => {
    const res = await chat(owner.key.key, { message: 'What is two plus two?', applicationId: owner.app.id }, path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      conversationId: expect.any(String),
      message: { id: expect.any(String), role: 'assistant', content: expect.stringContaining('two plus two'), createdAt: expect.any(String) },
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), totalTokens: expect.any(Number) },
      provider: 'provider_a',
      model: expect.any(String),
    });
    expect(res.headers.get('x-conversation-id')).toBe(res.body.conversationId);
    expect(stack.emulator!.requests.at(-1)!.apiKey).toBe(PLATFORM_KEYS.provider_a);
    expect(await storedConversation(res.body.conversationId)).toEqual({ source: 'api', api_key_id: owner.key.id });
  });

  it("answers 424 naming the provider and the key hint when the provider rejects the owner's own key, never a 401", async () => {
    const other = await anOwnerWithKey(stack, { plan: 'free' });
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-rejected-owner-key-Q7RS' }, { token: other.token });
    const res = await chat(other.key.key, { message: 'hi', applicationId: other.app.id });
    expect(res.status).toBe(424);
    expect(res.body.message).toMatch(/^provider_a \(OpenAI\) rejected the API key ending in "Q7RS"/);
    const streamed = await postStream(`${stack.listening.url}/api/v1/chat/stream`, { message: 'hi', applicationId: other.app.id }, { 'X-API-Key': other.key.key });
    expect((await readSseEvents(streamed)).at(-1)).toMatchObject({ type: 'error', statusCode: 424, message: res.body.message });
  });

  it('continues a conversation with conversationId, sending its history to the provider', async () => {
    const first = await chat(owner.key.key, { message: 'My name is Ada.', applicationId: owner.app.id });
    const second = await chat(owner.key.key, { message: 'What is my name?', applicationId: owner.app.id, conversationId: first.body.conversationId });
    expect(second.status).toBe(200);
    expect(second.body.conversationId).toBe(first.body.conversationId);
    expect(JSON.stringify(stack.emulator!.requests.at(-1)!.body.messages)).toContain('My name is Ada.');
  });

  it('streams the answer as SSE with the conversation id in a header, and marks widget traffic', async () => {
    const res = await postStream(
      `${stack.listening.url}/api/v1/chat/stream`,
      { message: 'Tell me a story about streams', applicationId: owner.app.id },
      { 'X-API-Key': owner.key.key, 'X-Client': 'widget' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    const conversationId = res.headers.get('x-conversation-id')!;
    const events = await readSseEvents(res);
    const chunks = events.filter((e) => e.type === 'chunk');
    const done = events.at(-1);
    expect(chunks.length).toBeGreaterThan(1);
    expect(done).toMatchObject({ type: 'done', conversationId, messageId: expect.any(String) });
    expect(done.fullResponse).toBe(chunks.map((c) => c.content).join(''));
    expect(await storedConversation(conversationId)).toEqual({ source: 'widget', api_key_id: owner.key.id });
  });

  it('reads back the history of a conversation the same key started', async () => {
    const sent = await chat(owner.key.key, { message: 'Remember the word lighthouse', applicationId: owner.app.id });
    const res = await stack.client.get(`/api/v1/conversations/${sent.body.conversationId}`, withKey(owner.key.key));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: sent.body.conversationId,
      applicationId: owner.app.id,
      title: 'Remember the word lighthouse',
      createdAt: expect.any(String),
      messages: [
        { id: expect.any(String), role: 'user', content: 'Remember the word lighthouse', createdAt: expect.any(String) },
        { id: sent.body.message.id, role: 'assistant', content: sent.body.message.content, createdAt: expect.any(String) },
      ],
    });
  });

  it("keeps other keys' and dashboard conversations out of reach, even for the same owner", async () => {
    const sent = await chat(owner.key.key, { message: 'Private to this key', applicationId: owner.app.id });
    const sibling = await createKey(stack.client, owner.token, {});
    const dashboard = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    for (const [key, id] of [[sibling.key, sent.body.conversationId], [owner.key.key, dashboard.body.id], [owner.key.key, 'not-a-uuid']]) {
      expect((await stack.client.get(`/api/v1/conversations/${id}`, withKey(key!))).status).toBe(404);
    }
    const continued = await chat(sibling.key, { message: 'Let me in', applicationId: owner.app.id, conversationId: sent.body.conversationId });
    expect(continued.status).toBe(404);
  });

  it('describes the application of a single-application key, by scope and by slug', async () => {
    const expected = { id: owner.app.id, name: 'Support Bot', slug: owner.app.slug, description: '', theme: { themeId: null, colors: {} } };
    expect((await stack.client.get('/api/v1/app', withKey(owner.key.key))).body).toMatchObject(expected);
    expect((await stack.client.get(`/api/v1/app?applicationId=${owner.app.id}`, withKey(owner.key.key))).body).toMatchObject(expected);
    const bySlug = (await stack.client.get(`/api/v1/app/${owner.app.slug}`, withKey(owner.key.key))).body;
    expect(bySlug).toMatchObject(expected);
    // The resolved theme (the default preset) and the branding the widget applies.
    expect(bySlug.theme.variables['--ap-color-primary']).toBe('#2563eb');
    expect(bySlug.branding).toEqual({ position: null, welcomeMessage: null, placeholder: null, customCss: '', showAttribution: true });
  });

  it('shows the theme colours the owner chose', async () => {
    const customized = await stack.client.put(`/api/applications/${owner.app.id}/theme/customize`, { colors: { primary: '#0a7d4f' } }, { token: owner.token });
    expect(customized.status).toBe(200);
    const res = await stack.client.get('/api/v1/app', withKey(owner.key.key));
    expect(res.body.theme.colors).toEqual({ primary: '#0a7d4f' });
    expect(res.body.theme.variables['--ap-color-primary']).toBe('#0a7d4f');
  });

  it('asks an all-applications key to name the application', async () => {
    const all = await createKey(stack.client, owner.token, { applicationId: null });
    const unnamed = await stack.client.get('/api/v1/app', withKey(all.key));
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.details[0].path).toBe('applicationId');
    expect((await stack.client.get(`/api/v1/app?applicationId=${owner.app.id}`, withKey(all.key))).body.id).toBe(owner.app.id);
    expect((await chat(all.key, { message: 'Hello', applicationId: owner.app.id })).status).toBe(200);
  });

  it('answers 403 for an application outside the key\'s scope', async () => {
    const second = await stack.client.post('/api/applications', { name: 'Second App' }, { token: owner.token });
    const stranger = await anOwnerWithKey(stack, { appName: 'Stranger App' });
    const all = await createKey(stack.client, owner.token, { applicationId: null });
    const refusals = [
      await chat(owner.key.key, { message: 'hi', applicationId: second.body.id }),
      await chat(all.key, { message: 'hi', applicationId: stranger.app.id }),
      await chat(all.key, { message: 'hi', applicationId: '00000000-0000-4000-8000-000000000000' }),
      await stack.client.get(`/api/v1/app?applicationId=${second.body.id}`, withKey(owner.key.key)),
      await stack.client.get(`/api/v1/app/${stranger.app.slug}`, withKey(owner.key.key)),
      await stack.client.get(`/api/v1/app/${second.body.slug}`, withKey(owner.key.key)),
    ];
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(refusals[0]!.body).toEqual({ statusCode: 403, message: 'This API key cannot be used with that application', error: 'Forbidden' });
    expect(stack.emulator!.requests).toEqual([]);
  });

  it.each([
    ['no key', {}, 'An API key is required in the X-API-Key header'],
    ['an unknown key', { 'X-API-Key': `pk_live_${'A'.repeat(43)}` }, 'The API key is not valid'],
    ['a malformed key', { 'X-API-Key': 'Bearer something' }, 'The API key is not valid'],
  ])('answers 401 for %s', async (_name, headers, message) => {
    const res = await stack.client.post('/api/v1/chat', { message: 'hi', applicationId: owner.app.id }, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message, error: 'Unauthorized' });
  });

  it.each([
    [{ applicationId: 'x' }, 'message'],
    [{ message: '   ' }, 'message'],
    [{ message: 'hi' }, 'applicationId'],
    [{ message: 42, applicationId: 'x' }, 'message'],
  ])('answers 400 naming the field for %j', async (body, path) => {
    const res = await chat(owner.key.key, body);
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers 402 on the public path when the owner\'s plan has no platform usage', async () => {
    const free = await anOwnerWithKey(stack, { plan: 'free', appName: 'Free App' });
    const sent = await chat(free.key.key, { message: 'hi', applicationId: free.app.id });
    expect(sent.status).toBe(402);
    expect(sent.body.message).toMatch(/save your own OpenAI key under Provider keys/);
    const streamed = await postStream(`${stack.listening.url}/api/v1/chat/stream`, { message: 'hi', applicationId: free.app.id }, { 'X-API-Key': free.key.key });
    expect(streamed.status).toBe(402);
    expect(streamed.headers.get('content-type')).toContain('application/json');
    expect(stack.emulator!.requests).toEqual([]);
  });

  describe('a refused first turn', () => {
    const conversationsOf = async (o: { token: string; app: { id: string } }) => {
      const res = await stack.client.get(`/api/conversations?applicationId=${o.app.id}`, { token: o.token });
      return { data: res.body as unknown[], total: Number(res.headers.get('x-total-count')) };
    };

    it.each(['/api/v1/chat', '/api/public/chat', '/api/v1/chat/stream'])('leaves no conversation behind on %s (Free plan without an own key: 402)', async (path) => {
      const free = await anOwnerWithKey(stack, { plan: 'free', appName: 'Free App' });
      const body = { message: 'hi', applicationId: free.app.id };
      const res = path.endsWith('/stream')
        ? await postStream(`${stack.listening.url}${path}`, body, { 'X-API-Key': free.key.key })
        : await chat(free.key.key, body, path);
      expect(res.status).toBe(402);
      expect(res.headers.get('x-conversation-id')).toBeNull();
      expect(await conversationsOf(free)).toEqual(expect.objectContaining({ data: [], total: 0 }));
      expect(stack.emulator!.requests).toEqual([]);
    });

    it('leaves no conversation behind past the monthly message limit, and continuing one is refused the same', async () => {
      const paid = await anOwnerWithKey(stack, { plan: 'starter', appName: 'Busy App' });
      const first = await chat(paid.key.key, { message: 'hello', applicationId: paid.app.id });
      expect(first.status).toBe(200);
      await stack.infra.dataSource.query(`UPDATE usage_counters SET messages_used = 10000 WHERE user_id = $1`, [paid.user.id]);
      const refused = await chat(paid.key.key, { message: 'one more', applicationId: paid.app.id });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ statusCode: 402, error: 'Payment Required', message: expect.stringMatching(/messages per month/) });
      const again = await chat(paid.key.key, { message: 'one more', applicationId: paid.app.id, conversationId: first.body.conversationId });
      expect(again.status).toBe(402);
      const listed = await conversationsOf(paid);
      expect(listed.total).toBe(1);
      expect((listed.data[0] as { id: string }).id).toBe(first.body.conversationId);
    });

    it('still keeps the conversation and the user message when the provider itself fails', async () => {
      const paid = await anOwnerWithKey(stack, { plan: 'pro', appName: 'Flaky App' });
      stack.emulator!.behaviour.failStatus = 500;
      const res = await chat(paid.key.key, { message: 'Are you there?', applicationId: paid.app.id });
      expect(res.status).toBe(502);
      const listed = await conversationsOf(paid);
      expect(listed.total).toBe(1);
      const id = (listed.data[0] as { id: string }).id;
      const stored = await stack.client.get(`/api/conversations/${id}`, { token: paid.token });
      expect(stored.body.messages[0]).toMatchObject({ role: 'user', content: 'Are you there?' });
    });
  });

  it("charges the application owner's plan and usage, whoever holds the key", async () => {
    const visitor = await registerUser(stack.client);
    const usage = async (token: string) => (await stack.client.get('/api/billing/usage', { token })).body.usage;
    const before = await usage(owner.token);
    const res = await stack.client.post('/api/v1/chat', { message: 'Who pays?', applicationId: owner.app.id }, { ...withKey(owner.key.key), token: visitor.access_token });
    expect(res.status).toBe(200);
    const after = await usage(owner.token);
    expect(after.messages).toBe(before.messages + 1);
    expect(after.tokensUsed).toBe(before.tokensUsed + res.body.usage.totalTokens);
    expect((await usage(visitor.access_token)).messages).toBe(0);
  });
});
