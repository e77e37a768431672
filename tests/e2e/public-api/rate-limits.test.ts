import type { TestResponse } from '../../support/http-client';
import { startCoreApi, startSecondCoreApi, type SecondInstance, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, createKey, withKey } from './public-api-support';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the two-instance Redis rate-limit test is skipped\n');

describe('public API: per-key rate limits (in process)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack.close());

  it('describes the window on every answer and refuses the 11th request of a minute at 10/min with 429', async () => {
    const { key } = await anOwnerWithKey(stack, { rateLimit: 10 });
    const started = Math.floor(Date.now() / 1000);
    const answers: TestResponse[] = [];
    let firstAnswered = 0;
    for (let i = 0; i < 11; i++) {
      answers.push(await stack.client.get('/api/v1/app', withKey(key.key)));
      firstAnswered ||= Date.now();
    }

    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(200), 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0', '0']);
    for (const a of answers) {
      expect(a.headers.get('x-ratelimit-limit')).toBe('10');
      const reset = Number(a.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(started);
      // The window opens with the first request, somewhere between `started` and its answer (a loaded
      // machine may take over a second there).
      expect(reset).toBeLessThanOrEqual(Math.ceil(firstAnswered / 1000) + 60);
      expect(a.headers.get('ratelimit-policy')).toBe('"api-key";q=10;w=60');
      expect(a.headers.get('ratelimit')).toMatch(/^"api-key";r=\d+;t=\d+$/);
    }
    expect(answers[0]!.headers.get('ratelimit')).toMatch(/^"api-key";r=9;t=(5\d|60)$/);

    const refused = answers[10]!;
    expect(refused.body).toEqual({ statusCode: 429, message: expect.stringContaining('10 requests per minute'), error: 'Too Many Requests' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts each key on its own', async () => {
    const owner = await anOwnerWithKey(stack, { rateLimit: 10 });
    for (let i = 0; i < 10; i++) await stack.client.get('/api/v1/app', withKey(owner.key.key));
    expect((await stack.client.get('/api/v1/app', withKey(owner.key.key))).status).toBe(429);
    const second = await createKey(stack.client, owner.token, { applicationId: owner.app.id, rateLimit: 10 });
    expect((await stack.client.get('/api/v1/app', withKey(second.key))).status).toBe(200);
  });

  it('counts chat requests too, before any provider work', async () => {
    const owner = await anOwnerWithKey(stack, { rateLimit: 10 });
    for (let i = 0; i < 10; i++) await stack.client.get('/api/v1/app', withKey(owner.key.key));
    const res = await stack.client.post('/api/v1/chat', { message: 'hi', applicationId: owner.app.id }, withKey(owner.key.key));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
  });
});

describe('login and registration: limited per client address', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '30' } }); // the default; test stacks raise it
  });
  afterAll(() => stack.close());

  it('refuses the 31st login or registration attempt of a minute from one address with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = i % 2
        ? await stack.client.post('/api/auth/login', { email: `nobody${i}@example.com`, password: 'wrong password' })
        : await stack.client.post('/api/auth/register', { email: `visitor${i}@example.com`, password: 'correct horse battery', displayName: 'V' });
      statuses.push(res.status);
    }
    expect(new Set(statuses)).toEqual(new Set([201, 401]));
    const limited = await stack.client.post('/api/auth/register', { email: 'one-too-many@example.com', password: 'correct horse battery', displayName: 'V' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

(REDIS_URL ? describe : describe.skip)('public API: one limit across two instances on Redis', () => {
  let stack: TestStack;
  let second: SecondInstance;
  beforeAll(async () => {
    stack = await startCoreApi({ env: { REDIS_URL } });
    second = await startSecondCoreApi(stack);
  });
  afterAll(async () => {
    await second.close();
    await stack.close();
  });

  it('lets through exactly the key\'s limit, whichever instance answers', async () => {
    const { key } = await anOwnerWithKey(stack, { rateLimit: 10 });
    const clients = [stack.client, second.client];
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => clients[i % 2]!.get('/api/v1/app', withKey(key.key))));
    const served = answers.filter((a) => a.status === 200);
    expect(served).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(6);
    expect(new Set(served.map((a) => a.headers.get('x-ratelimit-remaining')))).toEqual(new Set(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']));
  });
});
