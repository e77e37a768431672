import { createHash, randomBytes } from 'node:crypto';
import { signActingUser } from '../../../adapters/shared/marketplace-acting-user';
import { zipOf } from '../../support/plugins/plugin-examples';
import { DATABASE_KINDS } from '../../support/test-database';
import { catalogInProcess, catalogOverHttp, SEED_AUTHOR, seedCatalog, seedMarketplace } from '../../../apps/marketplace/marketplace-seed';
import { PRESETS } from '../../../core/themes/domain/presets';
import { aMarketUser, pluginSubmission, publishedPlugin, startMarketplace, type MarketplaceStack } from '../../support/marketplace-stack';

describe.each(DATABASE_KINDS)('marketplace service: catalog, submission and review (%s)', (database) => {
  let market: MarketplaceStack;
  const admin = aMarketUser('admin');
  const author = aMarketUser('developer');
  const reader = aMarketUser('user');
  beforeAll(async () => {
    market = await startMarketplace({ database });
  });
  afterAll(() => market.close());
  const c = () => market.client;

  describe('the service token and the signed acting user', () => {
    it('serves health without a token, everything else only with it', async () => {
      expect((await market.client.http.get('/api/health')).status).toBe(200);
      const bare = await market.client.http.get('/marketplace/browse');
      expect(bare.status).toBe(401);
      expect(bare.body).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
      expect((await market.client.http.get('/marketplace/browse', { token: 'not-the-token-at-all' })).status).toBe(401);
      expect((await c().get('/marketplace/browse')).status).toBe(200);
    });

    it('refuses acting-user headers that are forged, stale or name no platform role', async () => {
      const forged = { Authorization: `Bearer ${market.token}`, ...signActingUser('another-token-entirely', admin, new Date()) };
      expect((await market.client.http.get('/marketplace/admin/pending/count', { headers: forged })).status).toBe(401);
      const stale = { Authorization: `Bearer ${market.token}`, ...signActingUser(market.token, admin, new Date(Date.now() - 301_000)) };
      expect((await market.client.http.get('/marketplace/admin/pending/count', { headers: stale })).status).toBe(401);
      const tampered = { ...c().headers(reader), 'x-acting-user-role': 'admin' };
      expect((await market.client.http.get('/marketplace/admin/pending/count', { headers: tampered })).status).toBe(401);
      const oddRole = { Authorization: `Bearer ${market.token}`, ...signActingUser(market.token, { userId: reader.userId, role: 'root' }, new Date()) };
      expect((await market.client.http.get('/marketplace/submissions', { headers: oddRole })).status).toBe(401);
      expect((await c().get('/marketplace/admin/pending/count', admin)).status).toBe(200);
    });
  });

  describe('submission and review', () => {
    it('stores a submitted plugin sized and checksummed, pending and unlisted, until an administrator approves it', async () => {
      const body = await pluginSubmission('greeter', '1.0.0', { displayName: 'Greeter', isPaid: false });
      const bytes = Buffer.from(body.package as string, 'base64');
      const res = await c().post('/marketplace/submit/plugin', body, author);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'greeter',
        slug: 'greeter',
        displayName: 'Greeter',
        version: '1.0.0',
        author: 'Ada',
        authorId: author.userId,
        category: 'chat',
        status: 'pending',
        isActive: false,
        downloadCount: 0,
        ratingCount: 0,
        averageRating: 0,
        fileSize: bytes.length,
        checksum: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
        ratingStats: { averageRating: 0, totalReviews: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } },
      });
      const id = res.body.id;
      expect((await c().get('/marketplace/browse?search=greeter')).body.total).toBe(0);
      expect((await c().get(`/marketplace/plugins/${id}`, reader)).status).toBe(404);
      expect((await c().get(`/marketplace/plugins/${id}`)).status).toBe(404);
      expect((await c().get(`/marketplace/plugins/${id}`, author)).body.status).toBe('pending');

      const pending = await c().get('/marketplace/admin/pending/plugins', admin);
      expect(pending.status).toBe(200);
      expect(pending.body).toMatchObject({ total: 1, page: 1, limit: 20 });
      expect(pending.body.data[0].id).toBe(id);
      expect((await c().get('/marketplace/admin/pending/count', admin)).body).toEqual({ plugins: 1, themes: 0, total: 1 });
      expect((await c().get('/marketplace/admin/pending/plugins', reader)).status).toBe(403);
      expect((await c().get('/marketplace/admin/pending/plugins')).status).toBe(401);

      const refused = await c().post(`/marketplace/admin/plugins/${id}/approve`, {}, author);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('Forbidden');
      expect((await c().get(`/marketplace/plugins/${id}`, author)).body.status).toBe('pending');

      const approved = await c().post(`/marketplace/admin/plugins/${id}/approve`, {}, admin);
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ status: 'published', isActive: true });
      expect((await c().post(`/marketplace/admin/plugins/${id}/approve`, {}, admin)).status).toBe(409);
      const listed = await c().get('/marketplace/browse?search=greeter');
      expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([id]);
      expect((await c().get(`/marketplace/plugins/${id}`, reader)).body.homepage).toBeNull();
      expect((await c().get('/marketplace/admin/pending/count', admin)).body.plugins).toBe(0);
    });

    it('lets the author read why a submission was rejected; a rejected plugin is not listed', async () => {
      const res = await c().post('/marketplace/submit/plugin', await pluginSubmission('rejected-one'), author);
      expect(res.status).toBe(201);
      expect((await c().post(`/marketplace/admin/plugins/${res.body.id}/reject`, {}, admin)).status).toBe(400);
      expect((await c().post(`/marketplace/admin/plugins/${res.body.id}/reject`, { reason: 'Needs a README' }, reader)).status).toBe(403);
      const rejected = await c().post(`/marketplace/admin/plugins/${res.body.id}/reject`, { reason: 'Needs a README' }, admin);
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Needs a README' });
      const mine = await c().get('/marketplace/submissions', author);
      expect(mine.body.find((s: { id: string }) => s.id === res.body.id)).toMatchObject({ kind: 'plugin', status: 'rejected', rejectionReason: 'Needs a README' });
      expect((await c().get(`/marketplace/plugins/${res.body.id}`, author)).body.rejectionReason).toBe('Needs a README');
      expect((await c().get('/marketplace/browse?search=rejected')).body.total).toBe(0);
    });

    it('refuses a submission without a user, a taken slug, a bad package or a mismatched manifest', async () => {
      expect((await c().post('/marketplace/submit/plugin', await pluginSubmission('anonymous'))).status).toBe(401);
      expect((await c().post('/marketplace/submit/plugin', await pluginSubmission('greeter'), author)).status).toBe(409);
      const mismatch = await pluginSubmission('mismatch', '1.0.0');
      const other = await pluginSubmission('mismatch', '2.0.0');
      const res = await c().post('/marketplace/submit/plugin', { ...mismatch, package: other.package }, author);
      expect(res.status).toBe(400);
      expect(res.body.details[0].path).toBe('manifest.version');
      expect((await c().post('/marketplace/submit/plugin', { ...mismatch, package: 'not base64!' }, author)).status).toBe(400);
      expect((await c().post('/marketplace/submit/plugin', { ...mismatch, package: Buffer.from('not a zip').toString('base64') }, author)).status).toBe(400);
      expect((await c().post('/marketplace/submit/plugin', { ...mismatch, package: undefined }, author)).status).toBe(400);
      expect((await c().post('/marketplace/submit/plugin', { ...mismatch, version: '01.0.0' }, author)).status).toBe(400);
      expect((await c().post('/marketplace/submit/plugin', { ...mismatch, isPaid: true }, author)).status).toBe(400);
      expect((await c().post('/marketplace/submit/plugin', { ...mismatch, category: 'weather' }, author)).status).toBe(400);
      expect((await c().post('/marketplace/submit/plugin', { ...mismatch, screenshots: ['javascript:alert(1)'] }, author)).status).toBe(400);
      expect((await c().get('/marketplace/submissions', author)).body.some((s: { name: string }) => s.name === 'mismatch')).toBe(false);
    });

    it('refuses a ZIP with ../ entries and a package over the size limit', async () => {
      // yazl refuses to write such a name, so the entry is renamed in the stored (uncompressed) archive.
      const made = await zipOf({ 'manifest.json': JSON.stringify({ name: 'escaper', version: '1.0.0', main: 'index.js' }), 'index.js': 'x', 'zz/evil.js': 'x' }, { compress: false });
      const escaping = Buffer.from(made.toString('latin1').replaceAll('zz/evil.js', '../evil.js'), 'latin1');
      const res = await c().post('/marketplace/submit/plugin', { name: 'escaper', slug: 'escaper', version: '1.0.0', package: escaping.toString('base64') }, author);
      expect(res.status).toBe(400);
      expect(res.body.details[0].path).toBe('package');
      const big = randomBytes(600 * 1024).toString('base64');
      const tooBig = await c().post('/marketplace/submit/plugin', { name: 'huge', slug: 'huge', version: '1.0.0', package: big }, author);
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.error).toBe('Payload Too Large');
    });

    it('takes a theme as its definition: defaultStyles over a preset, validated', async () => {
      const theme = {
        name: 'ocean',
        slug: 'ocean',
        version: '1.0.0',
        category: 'business',
        previewUrl: 'https://themes.example.com/ocean.png',
        manifest: { extend: 'dark' },
        defaultStyles: { colors: { primary: '#0077be' } },
      };
      const res = await c().post('/marketplace/submit/theme', theme, author);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'pending', previewUrl: 'https://themes.example.com/ocean.png', defaultStyles: { colors: { primary: '#0077be' } } });
      expect(res.body.definition.colors.primary).toBe('#0077be');
      expect(res.body.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
      const bad = await c().post('/marketplace/submit/theme', { ...theme, name: 'bad', slug: 'bad', defaultStyles: { colors: { primary: 'url(javascript:x)' } } }, author);
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].path).toBe('defaultStyles.colors.primary');
      expect((await c().post('/marketplace/submit/theme', { ...theme, name: 'bad', slug: 'bad', manifest: { extend: 'nope' } }, author)).status).toBe(400);
      expect((await c().get('/marketplace/admin/pending/themes', admin)).body.data.map((t: { id: string }) => t.id)).toEqual([res.body.id]);
      await c().post(`/marketplace/admin/themes/${res.body.id}/approve`, {}, admin);
      const listed = await c().get('/marketplace/themes?search=ocean');
      expect(listed.body).toMatchObject({ total: 1, page: 1, limit: 20 });
      expect(listed.body.data[0]).toMatchObject({ name: 'ocean', previewUrl: 'https://themes.example.com/ocean.png', category: 'business' });
      expect((await c().get('/marketplace/themes/categories')).body).toEqual(['business']);
      const detail = await c().get(`/marketplace/themes/${res.body.id}`);
      expect(detail.body).toMatchObject({ ratingStats: { totalReviews: 0 }, recentReviews: [] });
      const review = await c().post(`/marketplace/themes/${res.body.id}/reviews`, { rating: 5, review: 'Calm colours' }, reader);
      expect(review.status).toBe(200);
      expect(review.body).toMatchObject({ themeId: res.body.id, rating: 5, ratingStats: { averageRating: 5, totalReviews: 1 } });
      expect((await c().get(`/marketplace/themes/${res.body.id}/reviews`)).body.map((r: { comment: string }) => r.comment)).toEqual(['Calm colours']);
      expect((await c().delete(`/marketplace/themes/${res.body.id}/reviews`, reader)).body.ratingStats.totalReviews).toBe(0);
      expect((await c().put(`/marketplace/admin/themes/${res.body.id}/featured`, { featured: true }, admin)).status).toBe(200);
      expect((await c().get('/marketplace/themes/featured')).body.map((t: { id: string }) => t.id)).toEqual([res.body.id]);
      // A plugin id is not a theme.
      expect((await c().get(`/marketplace/plugins/${res.body.id}`)).status).toBe(404);
    });
  });

  describe('browse', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      ids = {};
      for (const [name, category, description] of [
        ['alpha-analytics', 'analytics', 'Counts 100% of visits; the best_in_class "quoted" stats'],
        ['beta-security', 'security', 'Blocks spam and abuse'],
        ['gamma-chat', 'chat', 'Adds emoji reactions to chat'],
      ]) {
        ids[name!] = await publishedPlugin(c(), author, admin, await pluginSubmission(name!, '1.0.0', { category, description }));
      }
    });

    it('pages with total, page and limit, and refuses pages and limits out of range and unknown sorts', async () => {
      const first = await c().get('/marketplace/browse?limit=2&sort=recent');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ page: 1, limit: 2, total: 4 });
      expect(first.body.data).toHaveLength(2);
      const second = await c().get('/marketplace/browse?limit=2&page=2&sort=recent');
      expect(second.body.data).toHaveLength(2);
      expect(new Set([...first.body.data, ...second.body.data].map((p: { id: string }) => p.id)).size).toBe(4);
      expect(Object.keys(first.body.data[0]).sort()).toEqual(
        expect.arrayContaining(['id', 'name', 'displayName', 'description', 'version', 'author', 'category', 'downloadCount', 'ratingCount', 'averageRating', 'isActive']),
      );
      for (const q of ['page=0', 'page=-1', 'limit=101', 'limit=0', 'sort=cheapest', 'page=1.5', 'limit=ten', 'page=1&page=2', 'category=weather']) {
        const res = await c().get(`/marketplace/browse?${q}`);
        expect([q, res.status]).toEqual([q, 400]);
        expect(res.body.error).toBe('Bad Request');
      }
      expect((await c().get('/marketplace/browse?limit=100')).status).toBe(200);
      expect((await c().get('/marketplace/themes?limit=101')).status).toBe(400);
    });

    it('searches names and descriptions by full text; % _ and quotes are plain text', async () => {
      const names = async (q: string) => ((await c().get(`/marketplace/browse?search=${encodeURIComponent(q)}`)).body.data as { name: string }[]).map((p) => p.name);
      expect(await names('spam')).toEqual(['beta-security']);
      expect(await names('emoji reactions')).toEqual(['gamma-chat']);
      expect(await names('%')).toEqual([]);
      expect(await names('_')).toEqual([]);
      expect(await names("' OR 1=1 --")).toEqual([]);
      expect(await names('"quoted"')).toEqual(['alpha-analytics']);
      expect(await names('100%')).toEqual(['alpha-analytics']);
      expect((await c().get(`/marketplace/browse?search=${'x'.repeat(201)}`)).status).toBe(400);
      expect(((await c().get('/marketplace/browse?category=security')).body.data as { name: string }[]).map((p) => p.name)).toEqual(['beta-security']);
    });

    it('sorts by rating and by popularity, and lists categories and featured plugins from the data', async () => {
      await c().post(`/marketplace/plugins/${ids['beta-security']}/reviews`, { rating: 5 }, reader);
      await c().post(`/marketplace/plugins/${ids['gamma-chat']}/reviews`, { rating: 2 }, reader);
      const byRating = (await c().get('/marketplace/browse?sort=rating')).body.data.map((p: { name: string }) => p.name);
      expect(byRating.slice(0, 2)).toEqual(['beta-security', 'gamma-chat']);
      await c().http.get(`/marketplace/plugins/${ids['alpha-analytics']}/versions/1.0.0/package`, { headers: c().headers() });
      const popular = (await c().get('/marketplace/browse')).body.data;
      expect(popular[0]).toMatchObject({ name: 'alpha-analytics', downloadCount: 1 });
      expect((await c().get('/marketplace/plugins/categories')).body).toEqual(['analytics', 'chat', 'security']);
      expect((await c().get('/marketplace/categories')).body).toEqual(['analytics', 'chat', 'security']);
      expect((await c().put(`/marketplace/admin/plugins/${ids['gamma-chat']}/featured`, { featured: true }, reader)).status).toBe(403);
      expect((await c().put(`/marketplace/admin/plugins/${ids['gamma-chat']}/featured`, { featured: 'yes' }, admin)).status).toBe(400);
      expect((await c().put(`/marketplace/admin/plugins/${ids['gamma-chat']}/featured`, { featured: true }, admin)).body.featured).toBe(true);
      for (const path of ['/marketplace/plugins/featured', '/marketplace/featured']) {
        expect((await c().get(path)).body.map((p: { name: string }) => p.name)).toEqual(['gamma-chat']);
      }
    });

    it('answers 404 for unknown and malformed ids', async () => {
      expect((await c().get('/marketplace/plugins/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await c().get('/marketplace/plugins/not-an-id')).status).toBe(404);
      expect((await c().get('/marketplace/plugins/not-an-id/reviews')).status).toBe(404);
    });
  });
});

describe('marketplace seed', () => {
  let market: MarketplaceStack;
  beforeAll(async () => {
    market = await startMarketplace();
  });
  afterAll(() => market.close());

  it('loads the two example plugins and the four theme presets, published and featured, once', async () => {
    const first = await seedMarketplace(market.app.container);
    expect(first.created).toHaveLength(6);
    const again = await seedMarketplace(market.app.container);
    expect(again).toEqual({ created: [], completed: [], present: first.created });
    const plugins = await market.client.get('/marketplace/browse');
    expect(plugins.body.total).toBe(2);
    expect(plugins.body.data.map((p: { name: string }) => p.name).sort()).toEqual(['conversation-counter', 'profanity-filter']);
    const themes = await market.client.get('/marketplace/themes');
    expect(themes.body.data.map((t: { name: string }) => t.name).sort()).toEqual(['dark', 'default', 'minimal', 'vibrant']);
    expect((await market.client.get('/marketplace/featured')).body).toHaveLength(2);
    const filter = plugins.body.data.find((p: { name: string }) => p.name === 'profanity-filter');
    const versions = await market.client.get(`/marketplace/plugins/${filter.id}/versions`);
    expect(versions.body[0]).toMatchObject({ version: '1.0.0', fileSize: expect.any(Number), checksum: expect.stringMatching(/^sha256:/) });
    const dark = themes.body.data.find((t: { name: string }) => t.name === 'dark');
    expect((await market.client.get(`/marketplace/themes/${dark.id}`)).body.definition).toEqual(PRESETS.find((p) => p.id === 'dark')!.definition);
  });
});

describe('marketplace seed through the running service', () => {
  let market: MarketplaceStack;
  beforeAll(async () => {
    market = await startMarketplace();
  });
  afterAll(() => market.close());

  it('seeds over the API with the service token, and publishes what an interrupted run left pending', async () => {
    // An earlier run that stopped between submitting and approving left this theme pending.
    const pending = await catalogInProcess(market.app.container).submit('theme', { name: 'dark', slug: 'dark', version: '1.0.0', author: 'Platform team', manifest: { extend: 'dark' } });
    expect(pending).toMatchObject({ id: expect.any(String), status: 'pending' });
    const seeded = await seedCatalog(catalogOverHttp(market.url, market.token));
    expect(seeded.completed).toEqual(['theme dark']);
    expect(seeded.created).toHaveLength(5);
    expect(await seedCatalog(catalogOverHttp(market.url, market.token))).toEqual({ created: [], completed: [], present: [...seeded.created.slice(0, 3), 'theme dark', ...seeded.created.slice(3)] });
    const themes = await market.client.get('/marketplace/themes');
    expect(themes.body.data.map((t: { name: string; featured: boolean }) => [t.name, t.featured]).sort()).toEqual([['dark', true], ['default', true], ['minimal', true], ['vibrant', true]]);
    const plugins = await market.client.get('/marketplace/browse');
    for (const plugin of plugins.body.data) {
      expect((await market.client.get(`/marketplace/plugins/${plugin.id}/versions`)).body).toHaveLength(1);
    }
    expect(plugins.body.data.every((p: { authorId: string }) => p.authorId === SEED_AUTHOR.userId)).toBe(true);
  });

  it('names MARKETPLACE_TOKEN when the service refuses the token', async () => {
    await expect(seedCatalog(catalogOverHttp(market.url, 'not-the-token-of-this-service'))).rejects.toThrow(/refused MARKETPLACE_TOKEN/);
  });
});
