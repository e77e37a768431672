import { anOwnerWithKey, withKey } from '../public-api/public-api-support';
import { PLATFORM_KEYS, startCoreApi, startSecondCoreApi, userWithApplication, type SecondInstance, type TestStack } from '../../support/test-stack';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the cache-across-instances tests are skipped\n');

async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Each core API instance keeps what chat turns read (plan, own keys, default config, application) in
 * its own memory. A change made through one instance must reach the others: they hear it over Redis.
 */
(REDIS_URL ? describe : describe.skip)('cached reads across two core API instances on Redis', () => {
  let stack: TestStack;
  let second: SecondInstance;

  beforeAll(async () => {
    // A long time to live: only the invalidations can make the second instance see a change in time.
    stack = await startCoreApi({ providers: true, env: { REDIS_URL, CACHE_TTL_MS: '600000' } });
    second = await startSecondCoreApi(stack);
  });

  afterAll(async () => {
    await second.close();
    await stack.close();
  });

  it('a plan, an own key and a default config changed on one instance apply to turns on the other', async () => {
    const owner = await userWithApplication(stack.client);
    const conversation = await second.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    expect(conversation.status).toBe(201);
    const say = () => second.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'hello' }, { token: owner.token });

    // Free without a key: refused, and the second instance now holds the Free plan and "no keys".
    expect((await say()).status).toBe(402);

    await stack.setPlan(owner.user.id, 'pro');
    const afterUpgrade = await eventually(say, (res) => res.status === 200);
    expect(afterUpgrade.status).toBe(200);
    expect(stack.emulator!.requests.at(-1)!.apiKey).toBe(PLATFORM_KEYS.provider_a);

    const ownKey = 'sk-proj-OwnKeyA-cache0across0instances';
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: ownKey }, { token: owner.token })).status).toBe(200);
    await eventually(
      async () => (await say(), stack.emulator!.requests.at(-1)!.apiKey),
      (key) => key === ownKey,
    );
    expect(stack.emulator!.requests.at(-1)!.apiKey).toBe(ownKey);

    const config = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Precise', provider: 'provider_a', modelId: 'gpt-4o' }, { token: owner.token });
    expect(config.status).toBe(201);
    await eventually(
      async () => (await say(), stack.emulator!.requests.at(-1)!.body.model),
      (model) => model === 'gpt-4o',
    );
    expect(stack.emulator!.requests.at(-1)!.body.model).toBe('gpt-4o');
  });

  it('an A/B version started or stopped on one instance decides the new conversations of the other', async () => {
    const owner = await userWithApplication(stack.client);
    const { token } = owner;
    await stack.setPlan(owner.user.id, 'pro');
    const config = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Base', provider: 'provider_a', modelId: 'gpt-4o' }, { token });
    expect(config.status).toBe(201);
    // Each new conversation draws its version on the second instance; its first answer shows which model it got.
    const modelOfANewConversation = async () => {
      const conversation = await second.client.post('/api/conversations', { applicationId: owner.app.id }, { token });
      expect((await second.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'hi' }, { token })).status).toBe(200);
      return stack.emulator!.requests.at(-1)!.body.model as string;
    };
    expect(await eventually(modelOfANewConversation, (model) => model === 'gpt-4o')).toBe('gpt-4o'); // "no versions" now held there

    const versions = `/api/model-configs/${config.body._id}/versions`;
    const version = await stack.client.post(versions, { label: 'Mini', provider: 'provider_a', modelId: 'gpt-4o-mini', trafficPercent: 100 }, { token });
    expect(version.status).toBe(201);
    expect(await eventually(modelOfANewConversation, (model) => model === 'gpt-4o-mini')).toBe('gpt-4o-mini');

    expect((await stack.client.put(`${versions}/${version.body._id}`, { isActive: false }, { token })).status).toBe(200);
    expect(await eventually(modelOfANewConversation, (model) => model === 'gpt-4o')).toBe('gpt-4o');
  });

  it('an application renamed or deleted on one instance is seen so on the other', async () => {
    const owner = await userWithApplication(stack.client);
    expect((await second.client.get(`/api/applications/${owner.app.id}`, { token: owner.token })).body.name).toBe('Chat App');

    expect((await stack.client.put(`/api/applications/${owner.app.id}`, { name: 'Renamed' }, { token: owner.token })).status).toBe(200);
    const renamed = await eventually(() => second.client.get(`/api/applications/${owner.app.id}`, { token: owner.token }), (res) => res.body.name === 'Renamed');
    expect(renamed.body.name).toBe('Renamed');

    expect((await stack.client.delete(`/api/applications/${owner.app.id}`, { token: owner.token })).status).toBe(204);
    const gone = await eventually(() => second.client.get(`/api/applications/${owner.app.id}`, { token: owner.token }), (res) => res.status === 404);
    expect(gone.status).toBe(404);
  });

  it('an API key revoked or deleted on one instance is refused by the other at once', async () => {
    const revoked = await anOwnerWithKey(stack);
    const deleted = await anOwnerWithKey(stack);
    for (const o of [revoked, deleted]) expect((await second.client.get('/api/v1/app', withKey(o.key.key))).status).toBe(200);

    expect((await stack.client.post(`/api/api-keys/${revoked.key.id}/revoke`, undefined, { token: revoked.token })).status).toBe(200);
    expect((await stack.client.delete(`/api/api-keys/${deleted.key.id}`, { token: deleted.token })).status).toBe(204);
    for (const o of [revoked, deleted]) {
      const refused = await eventually(() => second.client.get('/api/v1/app', withKey(o.key.key)), (res) => res.status === 401);
      expect(refused.status).toBe(401);
    }
  });

  it('a deleted account stops working on the other instance', async () => {
    const owner = await userWithApplication(stack.client);
    expect((await second.client.get('/api/users/me', { token: owner.token })).status).toBe(200);
    expect((await stack.client.delete('/api/users/me', { token: owner.token, body: { password: owner.password } })).status).toBe(204);
    const after = await eventually(() => second.client.get('/api/users/me', { token: owner.token }), (res) => res.status === 401);
    expect(after.status).toBe(401);
  });
});
