import { startCoreApi, startSecondCoreApi, userWithApplication, type SecondInstance, type TestStack } from '../../support/test-stack';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the two-instance id-spelling test is skipped\n');

/** An id as a client might type it: upper case, or upper case with its hyphens percent-encoded. */
const upper = (id: string) => id.toUpperCase();
const encodedUpper = (id: string) => id.toUpperCase().replace(/-/g, '%2D');

/**
 * One id, two spellings (issue 17): the cache was keyed by the id as typed, so after a DELETE the
 * upper-case spelling still read the deleted record. Ids are canonicalized where they enter.
 */
describe('one id, one spelling', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // A long time to live: only a canonical key can make the deletion visible at once.
    stack = await startCoreApi({ providers: true, engine: 'remote', env: { CACHE_TTL_MS: '600000' } });
  });
  afterAll(() => stack.close());

  it('GET upper case, DELETE, then GET upper case is a 404 (and so is a second DELETE)', async () => {
    const owner = await userWithApplication(stack.client);
    const id = owner.app.id;
    const auth = { token: owner.token };
    const before = await stack.client.get(`/api/applications/${upper(id)}`, auth);
    expect(before.status).toBe(200);
    expect(before.body.id).toBe(id);
    expect((await stack.client.get(`/api/applications/${encodedUpper(id)}`, auth)).status).toBe(200);
    expect((await stack.client.delete(`/api/applications/${id}`, auth)).status).toBe(204);
    for (const spelling of [upper(id), encodedUpper(id), id]) {
      const after = await stack.client.get(`/api/applications/${spelling}`, auth);
      expect({ spelling, status: after.status }).toEqual({ spelling, status: 404 });
      expect((await stack.client.delete(`/api/applications/${spelling}`, auth)).status).toBe(404);
    }
  });

  it('every area answers an upper-case id as the lower-case one, in paths, queries and bodies', async () => {
    const owner = await userWithApplication(stack.client);
    const auth = { token: owner.token };
    const appId = owner.app.id;
    const config = await stack.client.post('/api/model-configs', { applicationId: upper(appId), name: 'C', provider: 'provider_a', modelId: 'gpt-4o-mini' }, auth);
    expect(config.status).toBe(201);
    expect(config.body.applicationId).toBe(appId);
    const prompt = await stack.client.post('/api/prompts', { applicationId: upper(appId), name: 'P', content: 'Hi {{name}}' }, auth);
    expect(prompt.status).toBe(201);
    const conversation = await stack.client.post('/api/conversations', { applicationId: upper(appId) }, auth);
    expect(conversation.status).toBe(201);

    for (const path of [
      `/api/model-configs/${config.body._id}`,
      `/api/model-configs/${config.body._id}/versions`,
      `/api/prompts/${prompt.body.id}`,
      `/api/conversations/${conversation.body.id}`,
      `/api/conversations?applicationId=${appId}`,
      `/api/prompts?applicationId=${appId}`,
    ]) {
      const lower = await stack.client.get(path, auth);
      const shouted = await stack.client.get(path.replace(/[0-9a-f-]{36}/g, upper), auth);
      expect({ path, status: shouted.status, body: shouted.body }).toEqual({ path, status: 200, body: lower.body });
    }

    // The AI service canonicalizes at its own entry too.
    const aiAuth = { headers: { Authorization: `Bearer ${stack.config.aiServiceToken}` } };
    const direct = await stack.ai!.client.get(`/api/ai/conversations/${upper(conversation.body.id)}`, aiAuth);
    expect(direct.status).toBe(200);
    expect(direct.body.id).toBe(conversation.body.id);
    const listed = await stack.ai!.client.get(`/api/ai/conversations/by-app/${upper(appId)}`, aiAuth);
    expect(listed.body.map((c: { id: string }) => c.id)).toContain(conversation.body.id);

    // Deleting under one spelling is seen under the other at once.
    expect((await stack.client.delete(`/api/prompts/${upper(prompt.body.id)}`, auth)).status).toBe(204);
    expect((await stack.client.get(`/api/prompts/${prompt.body.id}`, auth)).status).toBe(404);
  });

  it('text that only looks like an id in part is left as it is (and finds nothing)', async () => {
    const owner = await userWithApplication(stack.client);
    const res = await stack.client.get(`/api/applications/${upper(owner.app.id)}X`, { token: owner.token });
    expect(res.status).toBe(404);
  });
});

(REDIS_URL ? describe : describe.skip)('one id, one spelling across two instances on Redis', () => {
  let stack: TestStack;
  let second: SecondInstance;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, env: { REDIS_URL, CACHE_TTL_MS: '600000' } });
    second = await startSecondCoreApi(stack);
  });
  afterAll(async () => {
    await second.close();
    await stack.close();
  });

  it('both instances cached the record under an upper-case GET; a DELETE on one is a 404 on both', async () => {
    const owner = await userWithApplication(stack.client);
    const auth = { token: owner.token };
    const id = owner.app.id;
    // A chat turn on the second instance reads the application through its cached repository too.
    const conversation = await second.client.post('/api/conversations', { applicationId: upper(id) }, auth);
    expect(conversation.status).toBe(201);
    for (const client of [stack.client, second.client]) {
      expect((await client.get(`/api/applications/${upper(id)}`, auth)).status).toBe(200);
      expect((await client.get(`/api/applications/${id}`, auth)).status).toBe(200);
    }
    expect((await stack.client.delete(`/api/applications/${upper(id)}`, auth)).status).toBe(204);
    const until = Date.now() + 5_000;
    let statuses: number[] = [];
    do {
      statuses = [];
      for (const client of [stack.client, second.client]) {
        for (const spelling of [upper(id), encodedUpper(id), id]) statuses.push((await client.get(`/api/applications/${spelling}`, auth)).status);
      }
      if (statuses.every((s) => s === 404)) break;
      await new Promise((r) => setTimeout(r, 50));
    } while (Date.now() < until);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404]);
    // A new conversation for the deleted application is refused on both, whatever the spelling.
    for (const client of [stack.client, second.client]) {
      expect((await client.post('/api/conversations', { applicationId: upper(id) }, auth)).status).toBe(404);
    }
  });
});
