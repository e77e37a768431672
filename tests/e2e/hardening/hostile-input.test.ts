import { connect, type Socket } from 'node:net';
import { listen } from '../../../apps/shared/serve';
import { anOwnerWithKey, withKey } from '../public-api/public-api-support';
import { startCoreApi, stopListening, type TestStack } from '../../support/test-stack';
import type { TestClient, TestResponse } from '../../support/http-client';

/**
 * The nine causes of issue 17 that answered 500 (or 502) to input from outside. Each exact request
 * now answers 400 (404, 431 where stated) with the error body, on the core API and the AI service.
 */
describe('hostile input answers a client error with the error body', () => {
  let stack: TestStack;
  let core: TestClient;
  let ai: TestClient;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  let aiAuth: { headers: Record<string, string> };

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, engine: 'remote' });
    core = stack.client;
    ai = stack.ai!.client;
    aiAuth = { headers: { Authorization: `Bearer ${stack.config.aiServiceToken}` } };
    owner = await anOwnerWithKey(stack);
  });
  afterAll(() => stack.close());

  const raw = (client: TestClient, method: string, path: string, body: string, options: { token?: string; headers?: Record<string, string> } = {}) =>
    client.request(method, path, { rawBody: body, token: options.token, headers: { 'Content-Type': 'application/json', ...options.headers } });

  function expectErrorBody(res: TestResponse, status: number): void {
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status, type: 'application/json; charset=utf-8' });
    expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
    expect(Object.keys(res.body as object).every((k) => ['statusCode', 'message', 'error', 'details'].includes(k))).toBe(true);
  }

  describe('1. keys that name Object.prototype members', () => {
    it.each(['constructor', '__proto__', 'valueOf', 'toString', 'hasOwnProperty'])('POST /api/auth/login with a "%s" key is a 400', async (key) => {
      const res = await raw(core, 'POST', '/api/auth/login', `{"email":"a@b.c","password":"x","${key}":{}}`);
      expectErrorBody(res, 400);
    });

    it('refuses them nested too, and on the AI service', async () => {
      const config = await core.post('/api/model-configs', { applicationId: owner.app.id, name: 'Cfg', provider: 'provider_a', modelId: 'gpt-4o-mini' }, { token: owner.token });
      expect(config.status).toBe(201);
      expectErrorBody(await raw(core, 'PUT', `/api/model-configs/${config.body._id}`, '{"settings":{"toString":"x"}}', { token: owner.token }), 400);
      expectErrorBody(await raw(core, 'PUT', `/api/model-configs/${config.body._id}`, '{"settings":{"constructor":{"prototype":{"x":1}}}}', { token: owner.token }), 400);
      expectErrorBody(await raw(ai, 'POST', '/api/ai/conversations', `{"applicationId":"${owner.app.id}","valueOf":1}`, aiAuth), 400);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });
  });

  it('2. JSON nested 10,000 levels deep is a 400 (POST /api/auth/login)', async () => {
    const deep = '{"email":"a@b.c","password":"x","n":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
    expectErrorBody(await raw(core, 'POST', '/api/auth/login', deep), 400);
    expectErrorBody(await raw(ai, 'POST', '/api/ai/conversations', '{"x":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000) + '}', aiAuth), 400);
  });

  describe('3. NUL characters', () => {
    it('POST /api/auth/login {"email":"a\\u0000@b.c"} is a 400', async () => {
      expectErrorBody(await raw(core, 'POST', '/api/auth/login', '{"email":"a\\u0000@b.c","password":"x"}'), 400);
    });

    it('POST /api/v1/chat {"message":"\\u0000"} is a 400 from the core, not a 502 from the AI service', async () => {
      const res = await core.post('/api/v1/chat', { message: '\u0000', applicationId: owner.app.id }, withKey(owner.key.key));
      expectErrorBody(res, 400);
    });

    it('the AI service refuses it itself', async () => {
      const conversation = await ai.post('/api/ai/conversations', { applicationId: owner.app.id }, aiAuth);
      expect(conversation.status).toBe(201);
      const res = await ai.post(`/api/ai/conversations/${conversation.body.id}/messages`, { content: 'a\u0000b', provider: 'provider_a' }, aiAuth);
      expectErrorBody(res, 400);
    });

    it('in a field name, a query value or the path', async () => {
      expectErrorBody(await raw(core, 'POST', '/api/auth/login', '{"email":"a@b.c","password":"x","k\\u0000":1}'), 400);
      expectErrorBody(await core.get('/api/applications?page=1%00', { token: owner.token }), 400);
      expectErrorBody(await core.get('/api/v1/app/slug%00x'), 400);
    });
  });

  it('4. a lone surrogate: PUT /api/model-configs/:id {"settings":{"systemPrompt":"\\udc00x"}} is a 400', async () => {
    const config = await core.post('/api/model-configs', { applicationId: owner.app.id, name: 'Lone', provider: 'provider_a', modelId: 'gpt-4o-mini' }, { token: owner.token });
    const res = await raw(core, 'PUT', `/api/model-configs/${config.body._id}`, '{"settings":{"systemPrompt":"\\udc00x"}}', { token: owner.token });
    expectErrorBody(res, 400);
    // The config is untouched.
    const after = await core.get(`/api/model-configs/${config.body._id}`, { token: owner.token });
    expect(after.body).toEqual(config.body);
    // A well-formed pair is fine.
    const pair = await raw(core, 'PUT', `/api/model-configs/${config.body._id}`, '{"settings":{"systemPrompt":"\\ud83d\\ude00 smile"}}', { token: owner.token });
    expect(pair.status).toBe(200);
  });

  it.each(['apiKeyId', 'configVersionId'])('5. AI service: a non-UUID %s in POST /api/ai/conversations is a 400', async (field) => {
    const res = await ai.post('/api/ai/conversations', { applicationId: owner.app.id, [field]: 'not-a-uuid' }, aiAuth);
    expectErrorBody(res, 400);
    expect(res.body.details).toEqual([{ path: field, message: `${field} must be a UUID` }]);
  });

  it('6. POST /api/applications {"name":"x","slug":0} is a 400', async () => {
    const res = await core.post('/api/applications', { name: 'x', slug: 0 }, { token: owner.token });
    expectErrorBody(res, 400);
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'slug' })]);
  });

  it.each(['true', '0', '""', 'null', '[]', '[{"displayName":"x"}]'])('7. PUT /api/users/me with the body %s is a 400', async (body) => {
    const res = await raw(core, 'PUT', '/api/users/me', body, { token: owner.token });
    expectErrorBody(res, 400);
    expect(res.body.message).toBe('Request body must be a JSON object');
  });

  it('7. so is a non-object body on the AI service', async () => {
    expectErrorBody(await raw(ai, 'POST', '/api/ai/conversations', '"x"', aiAuth), 400);
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty'])('8. GET /api/docs/%s is a 404 on both services', async (name) => {
    expectErrorBody(await core.get(`/api/docs/${name}`), 404);
    expectErrorBody(await ai.get(`/api/docs/${name}`), 404);
    expect((await core.get('/api/docs/swagger-ui.css')).status).toBe(200);
  });

  describe('9. the HTTP server itself', () => {
    const exchange = (url: string, request: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(url);
        const socket = connect(Number(port), hostname);
        let answer = '';
        socket.on('data', (d) => (answer += d.toString('utf8')));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
        socket.write(request);
      });

    it.each(['core', 'ai'] as const)('headers over Node\'s limit get a 431 with the error body (%s)', async (which) => {
      const url = which === 'core' ? stack.listening.url : stack.ai!.listening.url;
      const answer = await exchange(url, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large/);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body!)).toEqual({ statusCode: 431, message: 'The request headers are too large', error: 'Request Header Fields Too Large' });
    });

    it('a malformed request line gets a 400 with the error body', async () => {
      const answer = await exchange(stack.listening.url, 'NOT HTTP AT ALL\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request/);
      expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });

    it('connections that dribble header bytes are closed once the headers timeout passes', async () => {
      // The same app on a listener with a short headers timeout, so the test does not wait for the default.
      const quick = await listen(stack.core, '127.0.0.1', 0, { headersTimeoutMs: 1_000, requestTimeoutMs: 5_000, checkIntervalMs: 200 });
      try {
        const { port } = new URL(quick.url);
        const sockets: Socket[] = [];
        const closed = Array.from({ length: 8 }, () =>
          new Promise<{ ms: number; answer: string }>((resolve) => {
            const started = Date.now();
            const socket = connect(Number(port), '127.0.0.1');
            sockets.push(socket);
            let answer = '';
            socket.on('error', () => undefined);
            socket.on('data', (d) => (answer += d.toString('utf8')));
            socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
            const drip = setInterval(() => socket.writable && socket.write('X'), 100);
            socket.on('close', () => {
              clearInterval(drip);
              resolve({ ms: Date.now() - started, answer });
            });
          }),
        );
        const results = await Promise.all(closed);
        for (const { ms, answer } of results) {
          expect(ms).toBeLessThan(4_000); // closed by the server, not the test's end
          expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
          expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ statusCode: 408, error: 'Request Timeout' });
        }
        // A normal request on the same listener still works.
        expect((await fetch(`${quick.url}/api/health`)).status).toBe(200);
      } finally {
        await stopListening(quick);
      }
    });

    it('a long answer is not cut by the request timeout: it counts until the request has arrived', async () => {
      const quick = await listen(stack.core, '127.0.0.1', 0, { headersTimeoutMs: 300, requestTimeoutMs: 500, checkIntervalMs: 100 });
      try {
        // Each streamed chunk waits 150 ms: the answer runs for several check intervals past the timeouts.
        stack.emulator!.behaviour.chunkDelayMs = 150;
        const conversation = await core.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
        const started = Date.now();
        const res = await fetch(`${quick.url}/api/conversations/${conversation.body.id}/stream`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${owner.token}` },
          body: JSON.stringify({ content: 'a slow answer in several words' }),
        });
        const text = await res.text();
        expect(res.status).toBe(200);
        expect(text).toContain('"type":"done"');
        expect(Date.now() - started).toBeGreaterThan(1_000);
      } finally {
        stack.emulator!.reset();
        await stopListening(quick);
      }
    });
  });
});
