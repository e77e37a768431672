import { verifyActingUser } from '../../../adapters/shared/marketplace-acting-user';
import { DATABASE_KINDS } from '../../support/test-database';
import { FakeMarketplace, sha256, type SeenRequest } from '../../support/fake-marketplace';
import { startCore, startMarketplaceStack, type MarketplaceStack } from '../../support/core-marketplace-stack';
import { zipOf } from '../../support/plugins/plugin-examples';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { createInfrastructure } from '../../../apps/shared/infrastructure';
import { createLogger } from '../../../adapters/logging/logger';

const ITEM = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const PAID = '7a2d3b4c-5e6f-4071-8b8c-0d1e2f3a4b5c';

const manifestOf = (version: string, name = 'greeter') => ({ name, displayName: 'Greeter', version, main: 'index.js', settings: { greeting: { type: 'string', default: 'hello' } } });
const SOURCE = `definePlugin({ endpoints: [{ method: 'GET', path: '/hi', handler: async () => ({ status: 200, body: { greeting: platform.settings.greeting } }) }] });`;

const versionOf = (fake: FakeMarketplace, item: string, version: string, pkg: Buffer, extra: Record<string, unknown> = {}) => ({
  pluginId: item,
  version,
  changelog: `Version ${version}`,
  compatibility: { minPlatformVersion: null, maxPlatformVersion: null },
  downloadUrl: `${fake.url}/marketplace/plugins/${item}/versions/${version}/package`,
  fileSize: pkg.length,
  checksum: sha256(pkg),
  ...extra,
});

const path = (r: SeenRequest) => new URL(r.url, 'http://x').pathname;

describe.each(DATABASE_KINDS)('core API: the marketplace through MarketplaceCatalog (%s)', (database) => {
  let fake: FakeMarketplace;
  let stack: MarketplaceStack;
  let pkg: Buffer;
  let versions: Record<string, unknown>[];
  let licensed: boolean;

  beforeAll(async () => {
    fake = await FakeMarketplace.start();
    stack = await startMarketplaceStack({ database, marketplaceUrl: fake.url, timeoutMs: 400 });
    pkg = await zipOf({ 'manifest.json': JSON.stringify(manifestOf('1.0.0')), 'index.js': SOURCE });
  });
  beforeEach(() => {
    fake.seen.length = 0;
    licensed = false;
    versions = [versionOf(fake, ITEM, '1.0.0', pkg)];
    fake.route = (req) => {
      const p = path(req);
      if (p === '/marketplace/browse') return { status: 200, body: { data: [{ id: ITEM, name: 'greeter' }], total: 1, page: 1, limit: 20 } };
      if (p === `/marketplace/plugins/${ITEM}`) return { status: 200, body: { id: ITEM, name: 'greeter', version: '1.0.0', isPaid: false } };
      if (p === `/marketplace/plugins/${PAID}`) return { status: 200, body: { id: PAID, name: 'greeter', version: '1.0.0', isPaid: true } };
      if (p === `/marketplace/plugins/${ITEM}/versions`) return { status: 200, body: versions };
      if (p === `/marketplace/plugins/${PAID}/versions`) return { status: 200, body: [versionOf(fake, PAID, '1.0.0', pkg)] };
      if (p.endsWith('/package')) return { status: 200, raw: pkg };
      if (p === '/marketplace/licenses/validate') return { status: 200, body: licensed ? { valid: true } : { valid: false, reason: 'no_license' } };
      if (p === `/marketplace/plugins/${ITEM}/reviews` && req.method === 'POST') return { status: 400, body: { statusCode: 400, message: 'rating must be an integer from 1 to 5', error: 'Bad Request' } };
      return null;
    };
  });
  afterAll(async () => {
    await stack.close();
    await fake.close();
  });

  it('forwards browse with the service token, and reviews with the signed acting user, on both spellings of the path', async () => {
    const user = await registerUser(stack.client);
    const browse = await stack.client.get('/api/marketplace/browse?search=%25_%27%22x&sort=rating&page=2&limit=5');
    expect(browse.status).toBe(200);
    expect(browse.body).toEqual({ data: [{ id: ITEM, name: 'greeter' }], total: 1, page: 1, limit: 20 });
    const sent = fake.seen.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${stack.config.marketplaceToken}`);
    expect(sent.headers['x-acting-user-id']).toBeUndefined();
    // %, _ and quotes travel as text.
    expect(Object.fromEntries(new URL(sent.url, 'http://x').searchParams)).toEqual({ search: `%_'"x`, sort: 'rating', page: '2', limit: '5' });
    expect((await stack.client.get('/marketplace/browse')).body.total).toBe(1);

    const review = await stack.client.post(`/marketplace/plugins/${ITEM}/reviews`, { rating: 4.5, review: 'ok' }, { token: user.access_token });
    expect(review.status).toBe(400);
    expect(review.body).toEqual({ statusCode: 400, message: 'rating must be an integer from 1 to 5', error: 'Bad Request' });
    const reviewed = fake.seen.at(-1)!;
    expect(JSON.parse(reviewed.body)).toEqual({ rating: 4.5, review: 'ok' });
    expect(verifyActingUser(stack.config.marketplaceToken, reviewed.headers, new Date())).toEqual({ userId: user.user.id, role: user.user.role });
    // Reviews need a user.
    expect((await stack.client.post(`/api/marketplace/plugins/${ITEM}/reviews`, { rating: 5 })).status).toBe(401);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['sort=cheapest', 'sort'],
    ['page=1.5', 'page'],
  ])('refuses browse with %s before asking the marketplace', async (query, field) => {
    const res = await stack.client.get(`/api/marketplace/browse?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining(field) });
    expect(fake.seen).toHaveLength(0);
  });

  it('answers 404 for an item id that is not a UUID and for a version that is not SemVer, without asking', async () => {
    expect((await stack.client.get('/api/marketplace/plugins/not-an-id')).status).toBe(404);
    expect((await stack.client.get(`/api/marketplace/plugins/${ITEM}/versions/01.0.0`)).status).toBe(404);
    expect(fake.seen).toHaveLength(0);
  });

  it('answers 503 with the error body when the marketplace does not answer in time, and the rest of the API keeps working', async () => {
    fake.route = () => 'hang';
    const res = await stack.client.get('/api/marketplace/browse');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ statusCode: 503, message: expect.stringMatching(/marketplace is unavailable.*in time/), error: 'Service Unavailable' });
    const owner = await userWithApplication(stack.client);
    expect((await stack.client.get('/api/applications', { token: owner.token })).status).toBe(200);
  });

  it('installs a marketplace plugin: downloaded, size and checksum verified, installed through the plugins area', async () => {
    const owner = await userWithApplication(stack.client);
    const res = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: ITEM.toUpperCase(), settings: { greeting: 'bonjour' } }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'greeter', state: 'installed', version: '1.0.0', settings: { greeting: 'bonjour' }, marketplace: { pluginId: ITEM, version: '1.0.0', isPaid: false } });
    const download = fake.seen.find((r) => path(r).endsWith('/package'))!;
    expect(download.headers.authorization).toBe(`Bearer ${stack.config.marketplaceToken}`);
    const listed = await stack.client.get(`/api/applications/${owner.app.id}/plugins`, { token: owner.token });
    expect(listed.body).toEqual([expect.objectContaining({ id: res.body.id, name: 'greeter' })]);
    expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${res.body.id}/activate`, {}, { token: owner.token })).status).toBe(200);
    const hi = await stack.client.get(`/api/plugins/${res.body.pluginId}/endpoints/hi`, { headers: { 'X-Application-Id': owner.app.id } });
    expect(hi.body).toEqual({ greeting: 'bonjour' });
    // Once per application.
    const again = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: ITEM }, { token: owner.token });
    expect(again.status).toBe(409);
  });

  async function refusedInstall(expectedStatus: number, message: RegExp) {
    const owner = await userWithApplication(stack.client);
    const res = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: ITEM }, { token: owner.token });
    expect(res.status).toBe(expectedStatus);
    expect(res.body.message).toMatch(message);
    expect((await stack.client.get(`/api/applications/${owner.app.id}/plugins`, { token: owner.token })).body).toEqual([]);
    expect((await stack.client.get('/api/plugins', { token: owner.token })).body).toEqual([]);
  }

  it('refuses a package whose checksum does not match, and installs nothing', async () => {
    versions = [versionOf(fake, ITEM, '1.0.0', pkg, { checksum: sha256(Buffer.from('something else')) })];
    await refusedInstall(400, /checksum/);
  });

  it('refuses a package that is not the size published, and one over the size limit', async () => {
    versions = [versionOf(fake, ITEM, '1.0.0', pkg, { fileSize: pkg.length + 10 })];
    await refusedInstall(400, /bytes/);
    versions = [versionOf(fake, ITEM, '1.0.0', pkg, { fileSize: 3 * 1024 * 1024 })];
    await refusedInstall(400, /limited to/);
    expect(fake.seen.filter((r) => path(r).endsWith('/package'))).toHaveLength(1);
  });

  it('refuses a downloadUrl on a private or loopback address other than the marketplace itself', async () => {
    versions = [versionOf(fake, ITEM, '1.0.0', pkg, { downloadUrl: 'https://127.0.0.1:9/evil.zip' })];
    await refusedInstall(400, /private, loopback or link-local/);
    versions = [versionOf(fake, ITEM, '1.0.0', pkg, { downloadUrl: 'http://example.com/p.zip' })];
    await refusedInstall(400, /https/);
  });

  it('refuses a ZIP with ../ entries', async () => {
    const plain = await zipOf({ 'manifest.json': JSON.stringify(manifestOf('1.0.0')), 'index.js': SOURCE, 'zz/evil.js': 'x' }, { compress: false });
    const evil = Buffer.from(plain.toString('latin1').replaceAll('zz/evil.js', '../evil.js'), 'latin1');
    versions = [versionOf(fake, ITEM, '1.0.0', evil)];
    fake.route = ((inner) => (req) => (path(req).endsWith('/package') ? { status: 200, raw: evil } : inner(req)))(fake.route);
    await refusedInstall(400, /outside|invalid relative path|not a readable ZIP/);
  });

  it('checks compatibility against the platform version', async () => {
    versions = [versionOf(fake, ITEM, '1.0.0', pkg, { compatibility: { minPlatformVersion: '99.0.0', maxPlatformVersion: null } })];
    await refusedInstall(409, /runs on platform/);
    const owner = await userWithApplication(stack.client);
    const asked = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: ITEM, version: '1.0.0' }, { token: owner.token });
    expect(asked.status).toBe(409);
    expect(asked.body.message).toMatch(/needs platform 99\.0\.0 or later/);
    const bad = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: ITEM, version: '1.0' }, { token: owner.token });
    expect(bad.status).toBe(400);
  });

  it('a paid plugin activates only with a valid license; with MARKETPLACE_URL empty validation is skipped', async () => {
    const owner = await userWithApplication(stack.client);
    const res = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: PAID }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body.marketplace.isPaid).toBe(true);
    const refused = await stack.client.put(`/api/applications/${owner.app.id}/plugins/${res.body.id}/activate`, {}, { token: owner.token });
    expect(refused.status).toBe(402);
    expect(refused.body.message).toMatch(/license.*no_license/);
    const asked = fake.seen.find((r) => path(r) === '/marketplace/licenses/validate')!;
    expect(Object.fromEntries(new URL(asked.url, 'http://x').searchParams)).toEqual({ pluginId: PAID, userId: owner.user.id });

    // The same database, a core API without a marketplace: nothing to ask, so activation goes ahead.
    const infra = await createInfrastructure({ ...stack.config, marketplaceUrl: undefined }, { database: stack.infra.database, logger: createLogger('silent') });
    const bare = await startCore(infra);
    try {
      const before = fake.seen.length;
      const activated = await bare.client.put(`/api/applications/${owner.app.id}/plugins/${res.body.id}/activate`, {}, { token: owner.token });
      expect(activated.status).toBe(200);
      expect(activated.body.state).toBe('activated');
      expect(fake.seen.length).toBe(before);
    } finally {
      await bare.close();
      await infra.cache.close?.();
    }
  });
});

describe.each(DATABASE_KINDS)('core API: no marketplace configured (%s)', (database) => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    stack = await startMarketplaceStack({ database, marketplaceUrl: '' });
  });
  afterAll(() => stack.close());

  it('browses empty: plugins, themes, featured, categories; items are not found', async () => {
    for (const prefix of ['/api/marketplace', '/marketplace']) {
      expect((await stack.client.get(`${prefix}/browse`)).body).toEqual({ data: [], total: 0, page: 1, limit: 20 });
      expect((await stack.client.get(`${prefix}/browse?page=3&limit=50`)).body).toEqual({ data: [], total: 0, page: 3, limit: 50 });
      expect((await stack.client.get(`${prefix}/themes`)).body).toEqual({ data: [], total: 0, page: 1, limit: 20 });
      for (const list of ['/plugins/featured', '/featured', '/plugins/categories', '/categories', '/themes/featured', '/themes/categories']) {
        const res = await stack.client.get(prefix + list);
        expect([list, res.status, res.body]).toEqual([list, 200, []]);
      }
      const missing = await stack.client.get(`${prefix}/plugins/${ITEM}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    expect((await stack.client.get('/api/marketplace/browse?limit=101')).status).toBe(400);
  });

  it('has no updates, installs nothing from it, and tells an admin so', async () => {
    const owner = await userWithApplication(stack.client);
    expect((await stack.client.get('/api/marketplace/updates', { token: owner.token })).body).toEqual([]);
    expect((await stack.client.get('/marketplace/updates/count', { token: owner.token })).body).toEqual({ count: 0 });
    const install = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: ITEM }, { token: owner.token });
    expect(install.status).toBe(404);
    const submit = await stack.client.post('/api/marketplace/submit/plugin', { name: 'x', slug: 'x', version: '1.0.0' }, { token: owner.token });
    expect(submit.status).toBe(404);
    expect(submit.body.message).toBe('No marketplace is configured on this platform');
    expect((await stack.client.get('/api/admin/marketplace', { token: owner.token })).status).toBe(403);
    const admin = await stack.client.get('/api/admin/marketplace', { token: await stack.adminToken() });
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual({ configured: false, pending: { plugins: [], themes: [] }, counts: { pendingPlugins: 0, pendingThemes: 0 } });
  });
});

describe('core API: a marketplace that refuses connections (pglite)', () => {
  let stack: MarketplaceStack;
  beforeAll(async () => {
    const closed = await FakeMarketplace.start();
    const url = closed.url;
    await closed.close();
    stack = await startMarketplaceStack({ marketplaceUrl: url });
  });
  afterAll(() => stack.close());

  it('answers 503 with the error body on browse, detail and install', async () => {
    for (const path of ['/api/marketplace/browse', '/marketplace/themes', `/api/marketplace/plugins/${ITEM}`]) {
      const res = await stack.client.get(path);
      expect([path, res.status, res.body]).toEqual([path, 503, { statusCode: 503, message: expect.stringContaining('connection refused'), error: 'Service Unavailable' }]);
    }
    const owner = await userWithApplication(stack.client);
    expect((await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: ITEM }, { token: owner.token })).status).toBe(503);
  });
});

describe('core API: chat keeps working while the marketplace is down (pglite)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    const closed = await FakeMarketplace.start();
    const url = closed.url;
    await closed.close();
    stack = await startCoreApi({ providers: true, env: { MARKETPLACE_URL: url } });
  });
  afterAll(() => stack.close());

  it('answers a chat turn on the platform key while the catalog answers 503', async () => {
    const owner = await userWithApplication(stack.client);
    await stack.setPlan(owner.user.id, 'pro');
    expect((await stack.client.get('/api/marketplace/browse', { token: owner.token })).status).toBe(503);
    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    expect(conversation.status).toBe(201);
    const turn = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Still there?', provider: 'provider_a', model: 'gpt-4o-mini' }, { token: owner.token });
    expect(turn.status).toBe(200);
    expect(turn.body.message.content).toMatch(/Still there\?/);
    // Update entries are the core's own records: they stay readable too.
    expect((await stack.client.get('/api/marketplace/updates/count', { token: owner.token })).body).toEqual({ count: 0 });
  });
});
