import { postStream, readSseEvents } from '../../support/sse';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paidUserWithApplication, registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

/**
 * Owners' connections (docs/connections.md) against the composed core API and AI service: the provider
 * emulator is an OpenAI-compatible endpoint on loopback, which the operator allows for connections.
 */
describe('core API: connections', () => {
  let stack: TestStack;
  let token: string;
  let appId: string;
  const KEY = 'sk-connection-secret-7777';
  const HEADER = 'header-secret-value-9999';

  let shop: Server;

  beforeAll(async () => {
    // The owner's endpoint an http tool calls (outbound rules allow it on loopback, like the connections').
    shop = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ order: req.url!.split('/').pop(), status: 'shipped' }));
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    stack = await startCoreApi({
      providers: true,
      env: { CONNECTIONS_ALLOW_HTTP: 'true', CONNECTIONS_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8', OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' },
    });
    const user = await registerUser(stack.client);
    token = user.access_token;
    appId = (await stack.client.post('/api/applications', { name: 'Connection app' }, { token })).body.id;
  });
  afterAll(async () => {
    await stack.close();
    await new Promise((resolve) => shop.close(resolve));
  });
  beforeEach(() => stack.emulator!.reset());

  const baseUrl = () => `${stack.emulator!.url}/provider_a/v1`;
  const create = (body: Record<string, unknown>, t = token) => stack.client.post('/api/connections', body, { token: t });

  it('saves a loopback endpoint the operator allows, discovers its models, and answers through it, streamed too', async () => {
    const saved = await create({ name: 'local-llm', baseUrl: baseUrl(), apiKey: KEY, headers: { 'X-Tenant': HEADER } });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'local-llm', kind: 'openai_compatible', hasKey: true, keyHint: '…7777', headerNames: ['x-tenant'] });
    expect(saved.body.models).toContain('gpt-4o-mini');
    // The key and header values never come back.
    expect(saved.text).not.toContain(KEY);
    expect(saved.text).not.toContain(HEADER);
    const listing = stack.emulator!.requests.find((r) => r.path === '/v1/models')!;
    expect(listing.apiKey).toBe(KEY);

    const conversation = (await stack.client.post('/api/conversations', { applicationId: appId }, { token })).body;
    const answer = await stack.client.post(`/api/conversations/${conversation.id}/messages`, { content: 'hello there', provider: 'local-llm', model: 'gpt-4o-mini' }, { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ provider: 'local-llm', model: 'gpt-4o-mini' });
    const chat = stack.emulator!.requests.find((r) => r.path === '/v1/chat/completions')!;
    expect(chat.apiKey).toBe(KEY);

    const events = await readSseEvents(
      await postStream(`${stack.listening.url}/api/conversations/${conversation.id}/stream`, { content: 'stream please', provider: 'local-llm', model: 'gpt-4o-mini' }, { authorization: `Bearer ${token}` }),
    );
    expect(events.filter((e) => e.type === 'chunk').length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: 'done', provider: 'local-llm', model: 'gpt-4o-mini' });

    // The stored answer names the connection and model; the key and header never reach the message or the logs' subject.
    const stored = await stack.client.get(`/api/conversations/${conversation.id}`, { token });
    expect(stored.text).not.toContain(KEY);
    expect(stored.text).not.toContain(HEADER);
    expect(stored.body.messages.at(-1)).toMatchObject({ provider: 'local-llm', model: 'gpt-4o-mini', status: 'complete' });
  });

  it('saves a model config, an A/B version and a studio draft on a connection, and the application answers through it', async () => {
    await create({ name: 'config-llm', baseUrl: baseUrl(), apiKey: KEY });
    const app = (await stack.client.post('/api/applications', { name: 'Config on a connection' }, { token })).body.id;
    const config = await stack.client.post('/api/model-configs', { applicationId: app, name: 'Own endpoint', provider: 'config-llm', modelId: 'gpt-4o-mini', isDefault: true }, { token });
    expect(config.status).toBe(201);
    expect(config.body).toMatchObject({ provider: 'config-llm', modelId: 'gpt-4o-mini', isDefault: true });
    // A model the connection does not serve, and a name that is neither a provider nor a connection, are refused naming the field.
    const wrongModel = await stack.client.put(`/api/model-configs/${config.body._id}`, { modelId: 'not-served' }, { token });
    expect(wrongModel.status).toBe(400);
    expect(wrongModel.body.details[0]).toMatchObject({ path: 'modelId' });
    const unknown = await stack.client.post('/api/model-configs', { applicationId: app, name: 'Nowhere', provider: 'no-such-connection' }, { token });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0]).toMatchObject({ path: 'provider' });
    // Another owner's connection name is unknown to this owner.
    const other = await registerUser(stack.client);
    const otherApp = (await stack.client.post('/api/applications', { name: 'Other' }, { token: other.access_token })).body.id;
    expect((await stack.client.post('/api/model-configs', { applicationId: otherApp, name: 'Borrowed', provider: 'config-llm' }, { token: other.access_token })).status).toBe(400);
    // The built-in providers keep working.
    expect((await stack.client.post('/api/model-configs', { applicationId: app, name: 'Built in', provider: 'provider_b' }, { token })).status).toBe(201);

    const version = await stack.client.post(`/api/model-configs/${config.body._id}/versions`, { label: 'Variant', trafficPercent: 0, settings: { temperature: 0.2 } }, { token });
    expect(version.status).toBe(201);
    expect(version.body).toMatchObject({ provider: 'config-llm', modelId: 'gpt-4o-mini' });

    const draft = await stack.client.put(`/api/applications/${app}/studio/draft`, { provider: 'config-llm', modelId: 'gpt-4o-mini', settings: { resilience: { retry: { maxRetries: 1, baseDelayMs: 100, maxDelayMs: 1000 } } } }, { token });
    expect(draft.status).toBe(200);
    expect(draft.body.config).toMatchObject({ provider: 'config-llm', modelId: 'gpt-4o-mini', settings: { resilience: { retry: { maxRetries: 1 } } } });
    expect((await stack.client.put(`/api/applications/${app}/studio/draft`, { provider: 'no-such-connection' }, { token })).body.details[0]).toMatchObject({ path: 'provider' });

    // A turn without a provider runs on the default config, hence on the connection.
    const conversation = (await stack.client.post('/api/conversations', { applicationId: app }, { token })).body;
    const answer = await stack.client.post(`/api/conversations/${conversation.id}/messages`, { content: 'through the config' }, { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ provider: 'config-llm', model: 'gpt-4o-mini' });
    const chat = stack.emulator!.requests.find((r) => r.path === '/v1/chat/completions')!;
    expect(chat.apiKey).toBe(KEY);
  });

  it('calls a tool through a connection (the endpoint speaks OpenAI tool calls) and answers with its result', async () => {
    const owner = await paidUserWithApplication(stack);
    const saved = await stack.client.post('/api/connections', { name: 'tool-llm', baseUrl: baseUrl(), apiKey: KEY }, { token: owner.token });
    expect(saved.status).toBe(201);
    const tool = await stack.client.post(
      `/api/applications/${owner.app.id}/tools`,
      {
        name: 'order_status',
        description: 'Where an order is',
        parameters: { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{1,6}$' } }, required: ['order'], additionalProperties: false },
        source: { type: 'http', method: 'GET', url: `http://127.0.0.1:${(shop.address() as AddressInfo).port}/orders/{{args.order}}` },
        timeoutMs: 5000,
      },
      { token: owner.token },
    );
    expect(tool.status).toBe(201);
    expect((await stack.client.put(`/api/applications/${owner.app.id}/agent`, { enabledTools: ['order_status'], maxToolRounds: 2 }, { token: owner.token })).status).toBe(200);
    const conversation = (await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token })).body.id;
    const res = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'Where is it? [[call order_status {"order":"4242"}]]', provider: 'tool-llm', model: 'gpt-4o-mini' }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: 'tool-llm', model: 'gpt-4o-mini' });
    expect(res.body.toolCalls).toEqual([expect.objectContaining({ name: 'order_status', arguments: { order: '4242' }, isError: false })]);
    expect(res.body.message.content).toContain('order_status returned');
    expect(res.body.message.content).toContain('shipped');
  });

  // The other kinds speak their API through its own SDK, given the connection's base URL; the emulator serves each API's shape.
  it.each([
    { kind: 'anthropic_compatible', path: 'provider_b', model: 'claude-3-5-haiku-latest', chatPath: '/v1/messages', listing: '/v1/models' },
    { kind: 'hugging_face_compatible', path: 'provider_d', model: 'meta-llama/Llama-3.1-8B-Instruct', chatPath: '/v1/chat/completions', listing: '/v1/models' },
  ])('speaks the $kind kind: models discovered, an answer, a stream and a tool call through its SDK, with the key and header sent', async ({ kind, path, model, chatPath, listing }) => {
    const owner = await paidUserWithApplication(stack);
    const name = `${path}-compatible`;
    const saved = await stack.client.post('/api/connections', { name, kind, baseUrl: `${stack.emulator!.url}/${path}`, apiKey: KEY, headers: { 'X-Tenant': HEADER } }, { token: owner.token });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name, kind, hasKey: true, headerNames: ['x-tenant'] });
    expect(saved.body.models).toContain(model);
    expect(saved.text).not.toContain(KEY);
    const listed = stack.emulator!.requests.find((r) => r.path === listing)!;
    expect(listed).toMatchObject({ provider: path, apiKey: KEY });
    expect(listed.headers['x-tenant']).toBe(HEADER);

    const conversation = (await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token })).body.id;
    const answer = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'hello there', provider: name, model }, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ provider: name, model });
    expect(answer.body.message.content.length).toBeGreaterThan(0);
    const chat = stack.emulator!.requests.find((r) => r.path === chatPath)!;
    expect(chat).toMatchObject({ provider: path, apiKey: KEY });
    expect(chat.headers['x-tenant']).toBe(HEADER);

    const events = await readSseEvents(
      await postStream(`${stack.listening.url}/api/conversations/${conversation}/stream`, { content: 'stream please', provider: name, model }, { authorization: `Bearer ${owner.token}` }),
    );
    expect(events.filter((e) => e.type === 'chunk').length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: 'done', provider: name, model });

    const tool = await stack.client.post(
      `/api/applications/${owner.app.id}/tools`,
      {
        name: 'order_status',
        description: 'Where an order is',
        parameters: { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{1,6}$' } }, required: ['order'], additionalProperties: false },
        source: { type: 'http', method: 'GET', url: `http://127.0.0.1:${(shop.address() as AddressInfo).port}/orders/{{args.order}}` },
        timeoutMs: 5000,
      },
      { token: owner.token },
    );
    expect(tool.status).toBe(201);
    expect((await stack.client.put(`/api/applications/${owner.app.id}/agent`, { enabledTools: ['order_status'], maxToolRounds: 2 }, { token: owner.token })).status).toBe(200);
    const called = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'Where is it? [[call order_status {"order":"4242"}]]', provider: name, model }, { token: owner.token });
    expect(called.status).toBe(200);
    expect(called.body.toolCalls).toEqual([expect.objectContaining({ name: 'order_status', arguments: { order: '4242' }, isError: false })]);
    expect(called.body.message.content).toContain('shipped');

  });

  it('falls back to a connection named in the model config’s fallbacks (connectionName/model) when the primary keeps failing', async () => {
    const owner = await paidUserWithApplication(stack);
    expect((await stack.client.post('/api/connections', { name: 'backup-claude', kind: 'anthropic_compatible', baseUrl: `${stack.emulator!.url}/provider_b`, apiKey: KEY }, { token: owner.token })).status).toBe(201);
    const settings = { resilience: { retry: { maxRetries: 0 }, fallbacks: [{ provider: 'no-such-connection', model: 'x' }, { provider: 'backup-claude', model: 'claude-3-5-haiku-latest' }] } };
    const config = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'With a backup', provider: 'provider_a', modelId: 'gpt-4o', isDefault: true, settings }, { token: owner.token });
    expect(config.status).toBe(201);
    stack.emulator!.behaviour.modelFaults = { 'gpt-4o': { status: 500 } };
    const conversation = (await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token })).body.id;
    const usageBefore = (await stack.client.get('/api/billing/usage', { token: owner.token })).body.usage;
    const answer = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'hello there' }, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ provider: 'backup-claude', model: 'claude-3-5-haiku-latest', answeredBy: { provider: 'backup-claude', model: 'claude-3-5-haiku-latest', fallback: true } });
    // The turn was held on the platform's keys but answered on the owner's own endpoint: the quota's tokens do not move.
    const usageAfter = (await stack.client.get('/api/billing/usage', { token: owner.token })).body.usage;
    expect(usageAfter.tokensUsed).toBe(usageBefore.tokensUsed);
    expect(usageAfter.ownKeyTokens).toBeGreaterThan(usageBefore.ownKeyTokens);
    expect(usageAfter.tokensReserved).toBe(0);
    expect(stack.emulator!.requests.find((r) => r.path === '/v1/messages')).toMatchObject({ provider: 'provider_b', apiKey: KEY });
    expect(answer.text).not.toContain(KEY);

    // Another owner's model config cannot reach this owner's connection by naming it: that fallback is skipped.
    const other = await paidUserWithApplication(stack);
    await stack.client.post('/api/model-configs', { applicationId: other.app.id, name: 'Borrowing', provider: 'provider_a', modelId: 'gpt-4o', isDefault: true, settings }, { token: other.token });
    stack.emulator!.requests.length = 0;
    const theirs = (await stack.client.post('/api/conversations', { applicationId: other.app.id }, { token: other.token })).body.id;
    const refused = await stack.client.post(`/api/conversations/${theirs}/messages`, { content: 'hello there' }, { token: other.token });
    expect(refused.status).toBe(502);
    expect(stack.emulator!.requests.filter((r) => r.provider === 'provider_b')).toHaveLength(0);
  });

  it('shares a model config’s load with a balance member on a connection, turn by turn, and hands a turn answered 429 to the other member', async () => {
    const owner = await paidUserWithApplication(stack);
    expect((await stack.client.post('/api/connections', { name: 'spare-llm', baseUrl: baseUrl(), apiKey: KEY }, { token: owner.token })).status).toBe(201);
    const settings = { resilience: { retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 400 }, balance: [{ provider: 'spare-llm', model: 'gpt-4o-mini' }] } };
    // A member without a model, and more than three members, are 400s naming the field.
    for (const [balance, path] of [[[{ provider: 'spare-llm' }], 'settings.resilience.balance.0'], [Array(4).fill({ provider: 'spare-llm', model: 'gpt-4o-mini' }), 'settings.resilience.balance']] as const) {
      const refused = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Refused', provider: 'provider_a', modelId: 'gpt-4o', settings: { resilience: { balance } } }, { token: owner.token });
      expect(refused.status).toBe(400);
      expect(refused.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
    }
    const config = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Balanced', provider: 'provider_a', modelId: 'gpt-4o', isDefault: true, settings }, { token: owner.token });
    expect(config.status).toBe(201);
    expect(config.body.settings.resilience.balance).toEqual([{ provider: 'spare-llm', model: 'gpt-4o-mini' }]);
    const conversation = (await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token })).body.id;
    const send = async () => {
      const answer = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'hello there' }, { token: owner.token });
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(KEY);
      return answer.body.answeredBy;
    };
    const chats = (model: string) => stack.emulator!.requests.filter((r) => r.path === '/v1/chat/completions' && (r.body as { model?: string })?.model === model);

    // Two turns, two members: neither is a fallback.
    expect([await send(), await send()]).toEqual([
      { provider: 'provider_a', model: 'gpt-4o', fallback: false },
      { provider: 'spare-llm', model: 'gpt-4o-mini', fallback: false },
    ]);
    expect(chats('gpt-4o-mini')[0]!.apiKey).toBe(KEY);

    // The primary is rate limited for 30 s: its turn goes to the member at once (no 30 s wait), and while it
    // cools down the member is taken first even when the round robin comes back to the primary.
    stack.emulator!.behaviour.modelFaults = { 'gpt-4o': { status: 429, retryAfter: 30 } };
    stack.emulator!.requests.length = 0;
    expect([await send(), await send(), await send()]).toEqual(Array(3).fill({ provider: 'spare-llm', model: 'gpt-4o-mini', fallback: false }));
    expect(chats('gpt-4o')).toHaveLength(1);
    expect(chats('gpt-4o-mini')).toHaveLength(3);

    // Another owner naming this owner's connection as a member never reaches it: the primary answers every turn.
    stack.emulator!.behaviour.modelFaults = {};
    stack.emulator!.requests.length = 0;
    const other = await paidUserWithApplication(stack);
    await stack.client.post('/api/model-configs', { applicationId: other.app.id, name: 'Borrowing', provider: 'provider_a', modelId: 'gpt-4o', isDefault: true, settings }, { token: other.token });
    const theirs = (await stack.client.post('/api/conversations', { applicationId: other.app.id }, { token: other.token })).body.id;
    for (let i = 0; i < 2; i++) {
      const answer = await stack.client.post(`/api/conversations/${theirs}/messages`, { content: 'hello there' }, { token: other.token });
      expect(answer.body.answeredBy).toEqual({ provider: 'provider_a', model: 'gpt-4o', fallback: false });
    }
    expect(chats('gpt-4o-mini')).toHaveLength(0);
  });

  it('refuses a URL with credentials, an unknown field, and a name that is a built-in provider', async () => {
    const withCredentials = await create({ name: 'creds', baseUrl: `http://user:pass@127.0.0.1:1/v1` });
    expect(withCredentials.status).toBe(400);
    expect(withCredentials.text).toContain('credentials');
    expect((await create({ name: 'provider_a', baseUrl: baseUrl() })).status).toBe(400);
    expect((await create({ name: 'x', baseUrl: baseUrl(), extra: 1 })).status).toBe(400);
  });

  it('caps a model list of 100,000 entries at 1,000', async () => {
    stack.emulator!.behaviour.modelListSize = 100_000;
    const saved = await create({ name: 'huge-list', baseUrl: baseUrl(), apiKey: KEY });
    expect(saved.status).toBe(201);
    const test = await stack.client.post(`/api/connections/${saved.body.id}/test`, {}, { token });
    expect(test.body).toEqual({ ok: true, modelCount: 1000 });
    expect(saved.body.models).toHaveLength(1000);
  });

  it('answers 404 for another owner’s connection', async () => {
    const mine = (await create({ name: 'mine', baseUrl: baseUrl(), models: ['m1'] })).body;
    const other = await registerUser(stack.client);
    expect((await stack.client.get(`/api/connections/${mine.id}`, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.delete(`/api/connections/${mine.id}`, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.delete(`/api/connections/${mine.id}`, { token })).status).toBe(204);
  });

  it('refuses an address outside the ranges the operator allows, naming the address rule', async () => {
    // Loopback is allowed here (127.0.0.0/8); the cloud metadata address and other private ranges are not.
    for (const url of ['http://169.254.169.254/v1', 'http://10.1.2.3/v1', 'http://[::1]:8080/v1']) {
      const res = await create({ name: 'elsewhere', baseUrl: url });
      expect(res.status).toBe(400);
      expect(res.body.details[0]).toMatchObject({ path: 'baseUrl' });
      expect(res.text).toMatch(/private or reserved/);
    }
  });
});
