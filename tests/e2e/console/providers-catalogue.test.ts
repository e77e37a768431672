import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

/** `GET /api/providers`: the catalogue the console's playground picks a provider and model from. */
describe('the model catalogue of the core API', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true });
  });
  afterAll(() => stack?.close());

  it('lists the four providers with their default and catalogued models and whether a platform key serves them', async () => {
    const user = await registerUser(stack.client);
    const res = await stack.client.get('/api/providers', { token: user.access_token });
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: string }) => p.id)).toEqual(['provider_a', 'provider_b', 'provider_c', 'provider_d']);
    const openai = res.body[0];
    expect(openai).toMatchObject({ defaultModel: 'gpt-4o-mini', platformKeyConfigured: true, acceptsAnyModel: false });
    expect(openai.models).toEqual(expect.arrayContaining([{ id: 'gpt-4o', maxOutputTokens: expect.any(Number), contextWindow: expect.any(Number) }]));
    expect(res.body[3].acceptsAnyModel).toBe(true);
  });

  it('is for signed-in users only', async () => {
    expect((await stack.client.get('/api/providers')).status).toBe(401);
  });

  it('answers a console asking to refresh without a session cookie with a 401, not a 400', async () => {
    const res = await stack.client.post('/api/auth/refresh', undefined, { headers: { 'X-AP-Session': 'cookie' } });
    expect(res.status).toBe(401);
    expect((await stack.client.post('/api/auth/refresh', {})).status).toBe(400); // bearer clients: unchanged
  });
});
