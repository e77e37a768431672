import { DATABASE_KINDS } from '../../support/test-database';
import type { TestResponse } from '../../support/http-client';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';

// Every log line of the stack, at debug level and without redaction: a key must not reach the logger at all.
const mockLogLines: string[] = [];
jest.mock('../../../adapters/logging/logger', () => {
  const pino = jest.requireActual('pino');
  return { createLogger: (_level: string, name?: string) => pino({ level: 'debug', name }, { write: (line: string) => mockLogLines.push(line) }) };
});

const KEYS = {
  provider_a: 'sk-proj-OwnKeyA-7f3c9e1d2b4a6c8e0f1a',
  provider_b: 'sk-ant-api03-OwnKeyB-9d8c7b6a5f4e3d2c',
  provider_c: 'AIzaSyOwnKeyC-1a2b3c4d5e6f7g8h9i0j',
  provider_d: 'hf_OwnKeyD_q1w2e3r4t5y6u7i8o9p0',
} as const;
const REJECTED_KEY = 'sk-rejected-OwnKey-5566778899';
const everyRawKey = [...Object.values(KEYS), REJECTED_KEY];

describe.each(DATABASE_KINDS)('core API: provider keys (%s)', (database) => {
  let stack: TestStack;
  /** Every response body of this suite, to check no key ever came back. */
  const responses: string[] = [];
  const seen = <T extends TestResponse>(res: T): T => {
    responses.push(res.text);
    return res;
  };
  const db = (sql: string, params: unknown[] = []) => stack.infra.dataSource.query(sql, params);

  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true });
  });
  afterAll(() => stack.close());

  it('refuses a key without the provider prefix with a 400 that does not repeat it', async () => {
    const { access_token: token } = await registerUser(stack.client);
    for (const [provider, apiKey] of [
      ['provider_a', 'pk-live-NotAnOpenAiKey-1234'],
      ['provider_b', KEYS.provider_a],
      ['provider_c', 'AIzaXNotGoogle-5678'],
      ['provider_d', 'hx_NotHuggingFace_9012'],
    ]) {
      const res = seen(await stack.client.put(`/api/provider-keys/${provider}`, { apiKey }, { token }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/must start with/) });
      expect(res.text).not.toContain(apiKey);
    }
    expect(seen(await stack.client.get('/api/provider-keys', { token })).body).toEqual([]);
  });

  it('refuses an Anthropic (sk-ant-) key saved as provider_a with a 400 that says it looks like a provider_b key', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const res = seen(await stack.client.put('/api/provider-keys/provider_a', { apiKey: KEYS.provider_b }, { token }));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/looks like a provider_b \(Anthropic\) key: save it as your provider_b key instead/);
    expect(res.text).not.toContain(KEYS.provider_b);
    expect(seen(await stack.client.get('/api/provider-keys', { token })).body).toEqual([]);
  });

  it('answers 400 for an unknown provider on every route, and 401 without a token', async () => {
    const { access_token: token } = await registerUser(stack.client);
    expect((await stack.client.put('/api/provider-keys/provider_x', { apiKey: 'sk-x-1234567' }, { token })).status).toBe(400);
    expect((await stack.client.delete('/api/provider-keys/openai', { token })).status).toBe(400);
    expect((await stack.client.post('/api/provider-keys/provider_e/validate', undefined, { token })).status).toBe(400);
    expect((await stack.client.get('/api/provider-keys')).status).toBe(401);
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: KEYS.provider_a })).status).toBe(401);
  });

  it('saves keys and shows only their last 4 characters; the database holds them sealed', async () => {
    const user = await registerUser(stack.client);
    const token = user.access_token;
    for (const [provider, apiKey] of Object.entries(KEYS)) {
      const res = seen(await stack.client.put(`/api/provider-keys/${provider}`, { apiKey }, { token }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ provider, keyHint: apiKey.slice(-4), isActive: true });
    }
    const list = seen(await stack.client.get('/api/provider-keys', { token }));
    expect(list.body).toEqual(
      Object.entries(KEYS).map(([provider, apiKey]) => ({ provider, keyHint: apiKey.slice(-4), isActive: true, lastUsedAt: null, lastValidatedAt: null })),
    );
    const rows: Record<string, unknown>[] = await db(`SELECT * FROM provider_keys WHERE user_id = $1`, [user.user.id]);
    expect(rows).toHaveLength(4);
    const stored = JSON.stringify(rows);
    for (const apiKey of Object.values(KEYS)) expect(stored).not.toContain(apiKey);
    for (const row of rows) expect(row.sealed_key).toMatch(/^v1\./);
  });

  it('deletes a key for good (204), then answers 404', async () => {
    const { access_token: token } = await registerUser(stack.client);
    seen(await stack.client.put('/api/provider-keys/provider_c', { apiKey: KEYS.provider_c }, { token }));
    const removed = await stack.client.delete('/api/provider-keys/provider_c', { token });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(seen(await stack.client.get('/api/provider-keys', { token })).body).toEqual([]);
    expect((await stack.client.delete('/api/provider-keys/provider_c', { token })).status).toBe(404);
  });

  it('validates a saved key with a live model listing and records when', async () => {
    const { access_token: token } = await registerUser(stack.client);
    for (const [provider, apiKey] of Object.entries(KEYS)) {
      seen(await stack.client.put(`/api/provider-keys/${provider}`, { apiKey }, { token }));
      stack.emulator!.reset();
      const res = seen(await stack.client.post(`/api/provider-keys/${provider}/validate`, undefined, { token }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ valid: true, provider, models: expect.arrayContaining([expect.any(String)]) });
      expect(stack.emulator!.requests.map((r) => [r.provider, r.apiKey])).toEqual([[provider, apiKey]]);
    }
    const list = seen(await stack.client.get('/api/provider-keys', { token }));
    for (const key of list.body) expect(Date.parse(key.lastValidatedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("answers valid: false with the provider's reason for a refused key", async () => {
    const { access_token: token } = await registerUser(stack.client);
    seen(await stack.client.put('/api/provider-keys/provider_a', { apiKey: REJECTED_KEY }, { token }));
    const res = seen(await stack.client.post('/api/provider-keys/provider_a/validate', undefined, { token }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, provider: 'provider_a', error: expect.any(String) });
    expect(res.body.error.length).toBeGreaterThan(0);
    expect(seen(await stack.client.get('/api/provider-keys', { token })).body[0].lastValidatedAt).toBeNull();
  });

  it('answers 404 when validating with no saved key', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const res = await stack.client.post('/api/provider-keys/provider_b/validate', undefined, { token });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/No provider_b key is saved/);
  });

  it('answers a chat with the user\'s own key for each provider, and records when it was used', async () => {
    const user = await userWithApplication(stack.client);
    const token = user.token;
    const conversation = seen(await stack.client.post('/api/conversations', { applicationId: user.app.id }, { token }));
    for (const [provider, apiKey] of Object.entries(KEYS)) {
      seen(await stack.client.put(`/api/provider-keys/${provider}`, { apiKey }, { token }));
      stack.emulator!.reset();
      const answer = seen(await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: `Hello ${provider}`, provider }, { token }));
      expect(answer.status).toBe(200);
      expect(answer.body.provider).toBe(provider);
      expect(stack.emulator!.requests.map((r) => [r.provider, r.apiKey])).toEqual([[provider, apiKey]]);
    }
    const list = seen(await stack.client.get('/api/provider-keys', { token }));
    for (const key of list.body) expect(key.lastUsedAt).not.toBeNull();
  });

  it('rejects a tampered ciphertext with a clear 409, on validation and on chat', async () => {
    const user = await userWithApplication(stack.client);
    const token = user.token;
    seen(await stack.client.put('/api/provider-keys/provider_a', { apiKey: KEYS.provider_a }, { token }));
    const [{ sealed_key: sealed }] = await db(`SELECT sealed_key FROM provider_keys WHERE user_id = $1 AND provider = 'provider_a'`, [user.user.id]);
    const parts = String(sealed).split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 0x01;
    parts[3] = body.toString('base64url');
    await db(`UPDATE provider_keys SET sealed_key = $2 WHERE user_id = $1 AND provider = 'provider_a'`, [user.user.id, parts.join('.')]);

    const validation = seen(await stack.client.post('/api/provider-keys/provider_a/validate', undefined, { token }));
    expect(validation.status).toBe(409);
    expect(validation.body.message).toMatch(/failed its integrity check.*save it again/);
    const conversation = seen(await stack.client.post('/api/conversations', { applicationId: user.app.id }, { token }));
    stack.emulator!.reset();
    const chat = seen(await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Hi' }, { token }));
    expect(chat.status).toBe(409);
    expect(stack.emulator!.requests).toEqual([]);
  });

  it("does not open a ciphertext copied onto another user's row", async () => {
    const owner = await registerUser(stack.client);
    const thief = await registerUser(stack.client);
    seen(await stack.client.put('/api/provider-keys/provider_b', { apiKey: KEYS.provider_b }, { token: owner.access_token }));
    seen(await stack.client.put('/api/provider-keys/provider_b', { apiKey: 'sk-ant-thief-own-0000' }, { token: thief.access_token }));
    await db(
      `UPDATE provider_keys SET sealed_key = (SELECT sealed_key FROM provider_keys WHERE user_id = $1 AND provider = 'provider_b')
        WHERE user_id = $2 AND provider = 'provider_b'`,
      [owner.user.id, thief.user.id],
    );
    stack.emulator!.reset();
    const res = seen(await stack.client.post('/api/provider-keys/provider_b/validate', undefined, { token: thief.access_token }));
    expect(res.status).toBe(409);
    expect(stack.emulator!.requests).toEqual([]);
    // The owner's own row still opens.
    expect(seen(await stack.client.post('/api/provider-keys/provider_b/validate', undefined, { token: owner.access_token })).body.valid).toBe(true);
  });

  it('never lets a raw key into a response or a log line', () => {
    const logs = mockLogLines.join('');
    expect(logs).toContain('"msg":"request"');
    for (const apiKey of everyRawKey) {
      expect(responses.join('\n')).not.toContain(apiKey);
      expect(logs).not.toContain(apiKey);
    }
  });
});
