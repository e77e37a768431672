import { waitFor } from '../../support/wait-for';
import { PROVIDER_IDS } from '../../../core/ai/domain/provider-id';
import { defaultModel } from '../../../core/ai/domain/model-catalog';
import { postStream, readSseEvents } from '../../support/sse';
import { PLATFORM_KEYS, paidUserWithApplication, registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';

const ENGINES = ['remote', 'in-process'] as const;
const cases = DATABASE_KINDS.flatMap((db) => ENGINES.map((engine) => [db, engine] as const));

describe.each(cases)('chat through the core API (%s, engine %s)', (database, engine) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof paidUserWithApplication>>;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, database, engine });
    owner = await paidUserWithApplication(stack);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator!.reset());

  const newConversation = async () => {
    const res = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it.each(PROVIDER_IDS)('answers a message through %s and stores both turns', async (provider) => {
    const id = await newConversation();
    const res = await stack.client.post(`/api/conversations/${id}/messages`, { content: 'What is two plus two?', provider, model: defaultModel(provider) }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      conversationId: id,
      message: { id: expect.any(String), role: 'assistant', content: expect.stringContaining('two plus two'), createdAt: expect.any(String) },
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), totalTokens: expect.any(Number) },
      provider,
      model: defaultModel(provider),
    });
    expect(stack.emulator!.requests.filter((r) => r.provider === provider).at(-1)!.apiKey).toBe(PLATFORM_KEYS[provider]);
    const history = await stack.client.get(`/api/conversations/${id}`, { token: owner.token });
    expect(history.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it.each(PROVIDER_IDS)('streams %s chunk by chunk, and done.fullResponse equals the chunks joined', async (provider) => {
    const id = await newConversation();
    const res = await postStream(`${stack.listening.url}/api/conversations/${id}/stream`, { content: 'Tell me a story about streams', provider, model: defaultModel(provider) }, { Authorization: `Bearer ${owner.token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSseEvents(res);
    const chunks = events.filter((e) => e.type === 'chunk');
    const done = events.at(-1);
    expect(chunks.length).toBeGreaterThan(1);
    expect(done.type).toBe('done');
    expect(done.fullResponse).toBe(chunks.map((c) => c.content).join(''));
    const stored = await stack.client.get(`/api/conversations/${id}`, { token: owner.token });
    expect(stored.body.messages[1]).toMatchObject({ role: 'assistant', content: done.fullResponse, status: 'complete' });
  });

  it('sends the history of the conversation with each new message', async () => {
    const id = await newConversation();
    await stack.client.post(`/api/conversations/${id}/messages`, { content: 'My name is Ada.', provider: 'provider_a' }, { token: owner.token });
    await stack.client.post(`/api/conversations/${id}/messages`, { content: 'What is my name?', provider: 'provider_a', system_prompt: 'Be brief.' }, { token: owner.token });
    const body = stack.emulator!.requests.at(-1)!.body;
    const texts = JSON.stringify(body.messages);
    expect(texts).toContain('My name is Ada.');
    expect(texts).toContain('What is my name?');
    expect(texts).toContain('Be brief.');
  });

  it.each([
    [{ content: 'hi', provider: 'provider_x' }, 'provider'],
    [{ content: 'hi', provider: 'provider_a', temperature: 2.5 }, 'settings.temperature'],
    [{ content: 'hi', provider: 'provider_c', temperature: 1.5 }, 'settings.temperature'],
    [{ content: 'hi', provider: 'provider_a', max_tokens: 0 }, 'settings.maxTokens'],
    [{ content: 'hi', provider: 'provider_a', model: 'no-such-model' }, 'model'],
    [{ content: '' }, 'content'],
  ])('answers 400 naming the field for %j', async (body, path) => {
    const id = await newConversation();
    const res = await stack.client.post(`/api/conversations/${id}/messages`, body, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it("answers 404 for another user's conversation on every route", async () => {
    const id = await newConversation();
    const other = await registerUser(stack.client);
    const token = other.access_token;
    expect((await stack.client.get(`/api/conversations/${id}`, { token })).status).toBe(404);
    expect((await stack.client.post(`/api/conversations/${id}/messages`, { content: 'hi' }, { token })).status).toBe(404);
    expect((await stack.client.post(`/api/conversations/${id}/stream`, { content: 'hi' }, { token })).status).toBe(404);
    expect((await stack.client.delete(`/api/conversations/${id}`, { token })).status).toBe(404);
    expect((await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token })).status).toBe(404);
    expect((await stack.client.get('/api/conversations', { token })).headers.get('x-total-count')).toBe('0');
  });

  it('lists the caller\u2019s conversations and archives one, refusing new messages to it', async () => {
    const id = await newConversation();
    // A first turn, so the conversation is in the core API's cache when it is archived.
    expect((await stack.client.post(`/api/conversations/${id}/messages`, { content: 'hello' }, { token: owner.token })).status).toBe(200);
    const list = await stack.client.get(`/api/conversations?applicationId=${owner.app.id}`, { token: owner.token });
    expect(list.body.map((c: { id: string }) => c.id)).toContain(id);
    expect((await stack.client.delete(`/api/conversations/${id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get(`/api/conversations/${id}`, { token: owner.token })).body.status).toBe('archived');
    expect((await stack.client.post(`/api/conversations/${id}/messages`, { content: 'hi' }, { token: owner.token })).status).toBe(400);
  });

  it('answers 502 naming the provider when it fails, keeping the user message', async () => {
    const id = await newConversation();
    stack.emulator!.behaviour.failStatus = 500;
    const res = await stack.client.post(`/api/conversations/${id}/messages`, { content: 'Are you there?', provider: 'provider_b' }, { token: owner.token });
    expect(res.status).toBe(502);
    expect(res.body.message).toContain('provider_b');
    const stored = await stack.client.get(`/api/conversations/${id}`, { token: owner.token });
    expect(stored.body.messages[0]).toMatchObject({ role: 'user', content: 'Are you there?' });
  });

  it('ends a stream with an error event when the provider fails', async () => {
    const id = await newConversation();
    stack.emulator!.behaviour.failStatus = 503;
    const res = await postStream(`${stack.listening.url}/api/conversations/${id}/stream`, { content: 'hi', provider: 'provider_a' }, { Authorization: `Bearer ${owner.token}` });
    const events = await readSseEvents(res);
    expect(events.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('provider_a') });
  });

  it('answers 424 naming the provider and the key hint when the provider rejects the own key: message, stream and validation', async () => {
    const user = await userWithApplication(stack.client, { name: 'Own Key App' });
    const app = { body: user.app };
    const key = 'sk-proj-rejected-by-provider-WXYZ';
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: key }, { token: user.token })).status).toBe(200);
    const conv = await stack.client.post('/api/conversations', { applicationId: app.body.id }, { token: user.token });
    const res = await stack.client.post(`/api/conversations/${conv.body.id}/messages`, { content: 'hi', provider: 'provider_a' }, { token: user.token });
    expect(res.status).toBe(424);
    expect(res.body).toMatchObject({ statusCode: 424, error: 'Failed Dependency' });
    expect(res.body.message).toMatch(/^provider_a \(OpenAI\) rejected the API key ending in "WXYZ": check it, or save a working provider_a \(OpenAI\) key, under Provider keys$/);
    expect(res.text).not.toContain(key);
    const streamed = await postStream(`${stack.listening.url}/api/conversations/${conv.body.id}/stream`, { content: 'hi', provider: 'provider_a' }, { Authorization: `Bearer ${user.token}` });
    const events = await readSseEvents(streamed);
    expect(events.at(-1)).toMatchObject({ type: 'error', statusCode: 424, message: res.body.message });
    const validation = await stack.client.post('/api/provider-keys/provider_a/validate', {}, { token: user.token });
    expect(validation.body).toMatchObject({ valid: false, provider: 'provider_a', error: expect.stringContaining('ending in "WXYZ"') });
    // The session is untouched: the same token still works.
    expect((await stack.client.get('/api/users/me', { token: user.token })).status).toBe(200);
  });

  it('aborting a stream cancels the provider request and keeps the partial answer as interrupted', async () => {
    const id = await newConversation();
    stack.emulator!.behaviour.chunkDelayMs = 150;
    const controller = new AbortController();
    const res = await postStream(`${stack.listening.url}/api/conversations/${id}/stream`, { content: 'a long answer please, with many words in it', provider: 'provider_a' }, { Authorization: `Bearer ${owner.token}` }, controller.signal);
    const reader = res.body!.getReader();
    await reader.read(); // the first chunk has arrived
    controller.abort();
    await waitFor(() => stack.emulator!.requests.at(-1)!.aborted === true);
    await waitFor(async () => {
      const stored = await stack.client.get(`/api/conversations/${id}`, { token: owner.token });
      return stored.body.messages[1]?.status === 'interrupted';
    });
  });
});

describe('chat failures that need their own configuration', () => {
  it('answers 504 when the provider does not answer within the timeout', async () => {
    const stack = await startCoreApi({ providers: true, env: { PROVIDER_TIMEOUT_MS: '300' } });
    try {
      const owner = await paidUserWithApplication(stack);
      const conv = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
      stack.emulator!.behaviour.delayMs = 2000;
      const res = await stack.client.post(`/api/conversations/${conv.body.id}/messages`, { content: 'hi', provider: 'provider_c' }, { token: owner.token });
      expect(res.status).toBe(504);
    } finally {
      await stack.close();
    }
  });

  it('answers 502 saying the platform key was refused, without any part of it, when the provider rejects it', async () => {
    const stack = await startCoreApi({ providers: true, env: { PROVIDER_D_API_KEY: 'hf_rejected_key' } });
    try {
      const owner = await paidUserWithApplication(stack);
      const conv = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
      const res = await stack.client.post(`/api/conversations/${conv.body.id}/messages`, { content: 'hi', provider: 'provider_d' }, { token: owner.token });
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/^provider_d \(Hugging Face\) rejected the platform's API key; the platform's administrator must replace it/);
      expect(res.text).not.toContain('hf_rejected_key');
    } finally {
      await stack.close();
    }
  });
});
