import { DATABASE_KINDS } from '../../support/test-database';
import { startMarketplaceStack, type MarketplaceStack } from '../../support/core-marketplace-stack';
import { zipOf } from '../../support/plugins/plugin-examples';
import { registerUser, userWithApplication } from '../../support/test-stack';

async function packageOf(name: string): Promise<string> {
  const manifest = { name, displayName: `Paid ${name}`, version: '1.0.0', main: 'index.js' };
  return (await zipOf({ 'manifest.json': JSON.stringify(manifest), 'index.js': 'definePlugin({});' })).toString('base64');
}

interface Held {
  id: string;
  plugin: { id: string; name: string; displayName: string };
  status: string;
  expiresAt: string | null;
  createdAt: string;
  installations: { installationId: string; applicationId: string; state: string; graceEndsAt: string | null }[];
}

describe.each(DATABASE_KINDS)('GET /api/marketplace/licenses: the licenses a buyer holds, through the core API and the real service (%s)', (database) => {
  let stack: MarketplaceStack;
  let admin: string;
  let author: Awaited<ReturnType<typeof registerUser>>;
  const as = (token: string) => ({ token });

  beforeAll(async () => {
    stack = await startMarketplaceStack({ database, service: true });
    admin = await stack.adminToken();
    author = await registerUser(stack.client);
  });
  afterAll(() => stack.close());

  async function paidPlugin(name: string): Promise<string> {
    const submitted = await stack.client.post('/api/marketplace/submit/plugin', { name, slug: name, version: '1.0.0', description: 'A paid helper', category: 'analytics', package: await packageOf(name), isPaid: true, price: 9 }, as(author.access_token));
    expect(submitted.status).toBe(201);
    expect((await stack.client.post(`/api/marketplace/admin/plugins/${submitted.body.id}/approve`, {}, as(admin))).status).toBe(200);
    return submitted.body.id as string;
  }
  const issue = async (pluginId: string, userId: string) => {
    const res = await stack.client.post(`/api/marketplace/plugins/${pluginId}/licenses`, { userId }, as(author.access_token));
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string; keyHint: string };
  };

  it("lists the caller's own licenses newest first, with the plugin and the installation, on both prefixes, and never a key nor another buyer's license", async () => {
    const first = await paidPlugin('held-first');
    const second = await paidPlugin('held-second');
    const buyer = await userWithApplication(stack.client);
    const other = await registerUser(stack.client);
    const a = await issue(first, buyer.user.id);
    await new Promise((r) => setTimeout(r, 20));
    const b = await issue(second, buyer.user.id);
    const theirs = await issue(first, other.user.id);
    const installed = await stack.client.post(`/api/applications/${buyer.app.id}/plugins`, { marketplacePluginId: second }, as(buyer.token));
    expect(installed.status).toBe(201);

    for (const prefix of ['/api/marketplace', '/marketplace']) {
      const res = await stack.client.get(`${prefix}/licenses`, as(buyer.token));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('2');
      const body = res.body as Held[];
      expect(body.map((l) => l.id)).toEqual([b.id, a.id]);
      expect(body[0]).toMatchObject({ plugin: { id: second, name: 'held-second', displayName: 'Paid held-second' }, status: 'active', expiresAt: null });
      expect(body[0]!.installations).toEqual([{ installationId: installed.body.id, applicationId: buyer.app.id, state: 'installed', graceEndsAt: null }]);
      expect(body[1]!.installations).toEqual([]);
      const text = JSON.stringify(body);
      for (const secret of [a.key, b.key, theirs.key, a.keyHint, b.keyHint]) expect(text).not.toContain(secret);
      expect(text).not.toContain(theirs.id);
      expect(text).not.toContain(other.user.id);
      expect(text).not.toMatch(/"key"|keyHint|keyHash|issuedBy|userId/);
    }

    const paged = await stack.client.get('/api/marketplace/licenses?page=2&limit=1', as(buyer.token));
    expect(paged.status).toBe(200);
    expect(paged.headers.get('x-total-count')).toBe('2');
    expect((paged.body as Held[]).map((l) => l.id)).toEqual([a.id]);
    const past = await stack.client.get('/api/marketplace/licenses?page=3&limit=1', as(buyer.token));
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe('2');

    // The other buyer sees only theirs; a revoked license stays listed as revoked.
    expect((await stack.client.delete(`/api/marketplace/plugins/${first}/licenses/${other.user.id}`, as(author.access_token))).status).toBe(200);
    const others = await stack.client.get('/api/marketplace/licenses', as(other.access_token));
    expect((others.body as Held[]).map((l) => [l.id, l.status])).toEqual([[theirs.id, 'revoked']]);
  });

  it('answers an empty list to someone holding none, 401 without a session, and 400 with the error body on bad paging', async () => {
    const nobody = await registerUser(stack.client);
    const none = await stack.client.get('/api/marketplace/licenses', as(nobody.access_token));
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
    expect((await stack.client.get('/api/marketplace/licenses')).status).toBe(401);
    for (const query of ['page=0', 'limit=101', 'limit=abc', 'page=1.5', 'page=1&page=2']) {
      const bad = await stack.client.get(`/api/marketplace/licenses?${query}`, as(nobody.access_token));
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/page|limit/) });
    }
  });
});
