import { countTokens } from '../../../support/emulator/synthetic';
import { DATABASE_KINDS } from '../../../support/test-database';
import { PLATFORM_KEYS, startCoreApi, userWithApplication, type TestStack } from '../../../support/test-stack';
import { DOCUMENTS, settled, uploadDocument } from './knowledge-documents';

type Plan = 'free' | 'starter' | 'pro' | 'enterprise';
type Status = 'active' | 'trialing';

// Embeddings on the platform's keys are counted against the owner's tokens like chat turns (SPEC 8).
describe.each(DATABASE_KINDS)('core API: embedding calls and the token quota (%s)', (database) => {
  let stack: TestStack;
  const db = (sql: string, params: unknown[] = []) => stack.infra.dataSource.query(sql, params);

  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true });
  });
  afterAll(() => stack.close());

  const usage = async (token: string) => (await stack.client.get('/api/billing/usage', { token })).body.usage;
  const anOwner = async (plan: Plan, status?: Status) => {
    const owner = await userWithApplication(stack.client, { name: 'Docs' });
    if (plan !== 'free' || status) await stack.setPlan(owner.user.id, plan, status);
    return owner;
  };
  const search = (owner: { token: string; app: { id: string } }, query: string) =>
    stack.client.get(`/api/knowledge/search?applicationId=${owner.app.id}&query=${encodeURIComponent(query)}`, { token: owner.token });
  /** Tokens the emulator counted for the embedding requests made with `apiKey` since the last reset. */
  const embeddingTokens = (apiKey: string, path: RegExp) =>
    stack.emulator!.requests.filter((r) => r.apiKey === apiKey && path.test(r.path)).reduce((sum, r) => sum + (r.body.input as string[]).reduce((s, t) => s + countTokens(t), 0), 0);

  it('counts the tokens of ingestion and of search queries on the platform key (provider_a), and no message', async () => {
    const owner = await anOwner('starter');
    stack.emulator!.reset();
    const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, embeddingProvider: 'provider_a' }, DOCUMENTS.drone);
    expect(res.status).toBe(202);
    expect(await settled(stack.client, owner.token, res.body.id)).toMatchObject({ status: 'ready', embeddingProvider: 'provider_a' });
    const ingested = embeddingTokens(PLATFORM_KEYS.provider_a, /\/embeddings$/);
    expect(ingested).toBeGreaterThan(0);
    expect(await usage(owner.token)).toMatchObject({ tokensUsed: ingested, tokensReserved: 0, tokensRemaining: 100_000 - ingested, messages: 0 });

    const found = await search(owner, 'How long does the drone fly?');
    expect(found.status).toBe(200);
    expect(found.body[0]).toMatchObject({ documentId: res.body.id });
    const withQuery = embeddingTokens(PLATFORM_KEYS.provider_a, /\/embeddings$/);
    expect(withQuery).toBe(ingested + countTokens('How long does the drone fly?'));
    expect(await usage(owner.token)).toMatchObject({ tokensUsed: withQuery, tokensReserved: 0, messages: 0 });
  });

  it.each([
    ['provider_c', PLATFORM_KEYS.provider_c],
    ['provider_d', PLATFORM_KEYS.provider_d],
  ] as const)('counts %s embeddings (which report no count) by the estimate of their texts', async (provider, platformKey) => {
    const owner = await anOwner('pro');
    stack.emulator!.reset();
    const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, embeddingProvider: provider }, DOCUMENTS.refunds);
    expect(res.status).toBe(202);
    expect(await settled(stack.client, owner.token, res.body.id)).toMatchObject({ status: 'ready' });
    expect(stack.emulator!.requests.length).toBeGreaterThan(0);
    expect(stack.emulator!.requests.every((r) => r.apiKey === platformKey)).toBe(true);
    const used = (await usage(owner.token)).tokensUsed;
    // Every chunk is a part of the document: together about its length in tokens, at least.
    expect(used).toBeGreaterThanOrEqual(Math.ceil(DOCUMENTS.refunds.text.length / 4) - 5);
    expect(await usage(owner.token)).toMatchObject({ tokensReserved: 0, messages: 0 });
  });

  it('never meters the own key nor the local embedder', async () => {
    const owner = await anOwner('starter');
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-metering-key-1234' }, { token: owner.token })).status).toBe(200);
    stack.emulator!.reset();
    const own = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, embeddingProvider: 'provider_a' }, DOCUMENTS.drone);
    const local = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, DOCUMENTS.refunds);
    expect(await settled(stack.client, owner.token, own.body.id)).toMatchObject({ status: 'ready' });
    expect(await settled(stack.client, owner.token, local.body.id)).toMatchObject({ status: 'ready', embeddingProvider: 'local' });
    expect((await search(owner, 'drone flight time')).status).toBe(200);
    expect(stack.emulator!.requests.length).toBeGreaterThan(0);
    expect(stack.emulator!.requests.every((r) => r.apiKey === 'sk-own-metering-key-1234')).toBe(true);
    // Shown apart, as own-key chat tokens are: what the provider counted for the own key's embeddings.
    const ownTokens = embeddingTokens('sk-own-metering-key-1234', /\/embeddings$/);
    expect(ownTokens).toBeGreaterThan(0);
    expect(await usage(owner.token)).toMatchObject({ tokensUsed: 0, tokensReserved: 0, overageTokens: 0, ownKeyTokens: ownTokens, messages: 0 });
  });

  it('refuses provider embeddings on Free without an own key with a 402 suggesting one, like chat', async () => {
    const owner = await anOwner('free');
    stack.emulator!.reset();
    const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, embeddingProvider: 'provider_c' }, DOCUMENTS.drone);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ statusCode: 402, error: 'Payment Required', message: expect.stringMatching(/save your own Google Gemini key under Provider keys/) });
    expect((await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}`, { token: owner.token })).body).toEqual([]);
    expect(stack.emulator!.requests).toEqual([]);
    // The local embedder needs no key and no plan.
    const local = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, DOCUMENTS.drone);
    expect(local.status).toBe(202);
    expect(await settled(stack.client, owner.token, local.body.id)).toMatchObject({ status: 'ready' });
    expect(await usage(owner.token)).toMatchObject({ tokensUsed: 0, messages: 0 });
  });

  it('refuses with 402 once a hard-limited plan has no tokens left: the search at once, the ingestion as a document error', async () => {
    const owner = await anOwner('starter', 'trialing');
    const first = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, embeddingProvider: 'provider_a' }, DOCUMENTS.drone);
    expect(await settled(stack.client, owner.token, first.body.id)).toMatchObject({ status: 'ready' });
    await db(`UPDATE usage_counters SET tokens_used = 100000 WHERE user_id = $1`, [owner.user.id]);
    stack.emulator!.reset();

    const refused = await search(owner, 'drone');
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ statusCode: 402, error: 'Payment Required', message: expect.stringMatching(/platform tokens of the Starter plan are used up/) });

    const late = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, embeddingProvider: 'provider_a' }, DOCUMENTS.refunds);
    expect(late.status).toBe(202);
    expect(await settled(stack.client, owner.token, late.body.id)).toMatchObject({ status: 'error', error: expect.stringMatching(/platform tokens of the Starter plan are used up/), chunkCount: 0 });
    expect(stack.emulator!.requests).toEqual([]);
    expect(await usage(owner.token)).toMatchObject({ tokensUsed: 100_000, tokensReserved: 0, messages: 0 });
  });
});
