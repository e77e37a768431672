import { createHash } from 'node:crypto';
import { DATABASE_KINDS } from '../../support/test-database';
import { aMarketUser, pluginPackage, pluginSubmission, publishedPlugin, startMarketplace, type MarketplaceStack } from '../../support/marketplace-stack';

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe.each(DATABASE_KINDS)('marketplace service: reviews, versions, licenses (%s)', (database) => {
  let market: MarketplaceStack;
  let now = new Date('2026-03-01T10:00:00Z');
  const admin = aMarketUser('admin');
  const author = aMarketUser('developer');
  const reader = aMarketUser('user');
  let pluginId: string;
  beforeAll(async () => {
    market = await startMarketplace({ database, platformVersion: '1.4.0', clock: { now: () => now } });
    pluginId = await publishedPlugin(market.client, author, admin, await pluginSubmission('versioned', '1.0.0'));
  });
  afterAll(() => market.close());
  const c = () => market.client;

  describe('reviews', () => {
    it('keeps one review per user (upsert), stored as text, and refuses ratings that are not 1 to 5', async () => {
      const html = '<script>alert("x")</script><b>great</b>';
      const first = await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating: 4, review: html, title: 'Nice' }, reader);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^application\/json/);
      expect(first.body).toMatchObject({ pluginId, userId: reader.userId, rating: 4, title: 'Nice', comment: html, review: html });
      expect(first.body.ratingStats).toEqual({ averageRating: 4, totalReviews: 1, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 0 } });
      const second = await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating: 2, review: 'changed my mind' }, reader);
      expect(second.body.id).toBe(first.body.id);
      expect(second.body.ratingStats).toEqual({ averageRating: 2, totalReviews: 1, distribution: { 1: 0, 2: 1, 3: 0, 4: 0, 5: 0 } });
      const listed = await c().get(`/marketplace/plugins/${pluginId}/reviews`);
      expect(listed.body).toHaveLength(1);
      expect(listed.body[0]).toMatchObject({ rating: 2, comment: 'changed my mind' });

      for (const rating of [0, 6, 4.5, '5', null, -1]) {
        const res = await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating, review: 'x' }, reader);
        expect([rating, res.status]).toEqual([rating, 400]);
      }
      expect((await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating: 3, review: 'x'.repeat(5001) }, reader)).status).toBe(400);
      expect((await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating: 3, review: 'x'.repeat(5000) }, reader)).status).toBe(200);
      expect((await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating: 3 })).status).toBe(401);
      expect((await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating: 3 }, author)).status).toBe(403);
      expect((await c().get(`/marketplace/plugins/${pluginId}/reviews?limit=101`)).status).toBe(400);
      expect((await c().get(`/marketplace/plugins/${pluginId}/reviews?skip=-1`)).status).toBe(400);
      expect((await c().get(`/marketplace/plugins/${pluginId}`)).body.recentReviews).toHaveLength(1);
    });

    it('deletes only the caller’s own review', async () => {
      const other = aMarketUser();
      await c().post(`/marketplace/plugins/${pluginId}/reviews`, { rating: 5 }, other);
      const gone = await c().delete(`/marketplace/plugins/${pluginId}/reviews`, other);
      expect(gone.status).toBe(200);
      expect(gone.body).toMatchObject({ success: true, ratingStats: { totalReviews: 1 } });
      expect((await c().delete(`/marketplace/plugins/${pluginId}/reviews`, other)).status).toBe(404);
      expect((await c().get(`/marketplace/plugins/${pluginId}`)).body.ratingCount).toBe(1);
    });

    it('keeps averageRating, ratingCount and the distribution exact under 50 concurrent upserts', async () => {
      const target = await publishedPlugin(c(), author, admin, await pluginSubmission('popular-one'));
      const users = Array.from({ length: 50 }, () => aMarketUser());
      const ratings = users.map((_, i) => (i % 5) + 1);
      // Each user reviews twice at once (the second replaces the first), all 100 requests concurrently.
      const results = await Promise.all(
        users.flatMap((u, i) => [
          c().post(`/marketplace/plugins/${target}/reviews`, { rating: ratings[i], review: 'first' }, u),
          c().post(`/marketplace/plugins/${target}/reviews`, { rating: ratings[i], review: 'second' }, u),
        ]),
      );
      expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
      const detail = (await c().get(`/marketplace/plugins/${target}`)).body;
      expect(detail.ratingStats).toEqual({ averageRating: 3, totalReviews: 50, distribution: { 1: 10, 2: 10, 3: 10, 4: 10, 5: 10 } });
      expect(detail).toMatchObject({ ratingCount: 50, averageRating: 3 });
      // And concurrent changes of every rating to 5, with deletes of ten.
      await Promise.all([
        ...users.slice(10).map((u) => c().post(`/marketplace/plugins/${target}/reviews`, { rating: 5 }, u)),
        ...users.slice(0, 10).map((u) => c().delete(`/marketplace/plugins/${target}/reviews`, u)),
      ]);
      expect((await c().get(`/marketplace/plugins/${target}`)).body.ratingStats).toEqual({ averageRating: 5, totalReviews: 40, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 40 } });
    });
  });

  describe('versions', () => {
    const publish = (version: string, extra: Record<string, unknown> = {}, user = author) =>
      pluginPackage({ name: 'versioned', version }).then((pkg) => c().post(`/marketplace/plugins/${pluginId}/versions`, { version, package: pkg, ...extra }, user));

    it('publishes SemVer versions, newest release first in SemVer order, a duplicate is a 409', async () => {
      for (const v of ['1.2.0', '1.10.0', '1.9.0', '2.0.0-beta.1']) expect((await publish(v, { changelog: `v${v}` })).status).toBe(201);
      const dup = await publish('1.9.0');
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({ statusCode: 409, message: expect.stringContaining('1.9.0'), error: 'Conflict' });
      const list = await c().get(`/marketplace/plugins/${pluginId}/versions`);
      expect(list.body.map((v: { version: string }) => v.version)).toEqual(['2.0.0-beta.1', '1.10.0', '1.9.0', '1.2.0', '1.0.0']);
      expect((await c().get(`/marketplace/plugins/${pluginId}`)).body.version).toBe('1.10.0');
      const one = await c().get(`/marketplace/plugins/${pluginId}/versions/1.10.0`);
      expect(one.body).toMatchObject({ pluginId, version: '1.10.0', changelog: 'v1.10.0', publishedBy: author.userId, compatible: true, checksum: expect.stringMatching(/^sha256:/) });
      expect((await c().get(`/marketplace/plugins/${pluginId}/versions/9.9.9`)).status).toBe(404);
    });

    it('refuses versions that are not SemVer, a publisher who is not the author, and bad compatibility bounds', async () => {
      for (const v of ['1.0', '01.0.0', 'v1.0.0', '1.0.0.0', '']) {
        const res = await c().post(`/marketplace/plugins/${pluginId}/versions`, { version: v, package: await pluginPackage({ name: 'versioned', version: '3.0.0' }) }, author);
        expect([v, res.status]).toEqual([v, 400]);
      }
      expect((await publish('3.0.0', {}, reader)).status).toBe(403);
      expect((await c().post(`/marketplace/plugins/${pluginId}/versions`, { version: '3.0.0', package: await pluginPackage({ name: 'versioned', version: '3.0.0' }) })).status).toBe(401);
      expect((await publish('3.0.0', { compatibility: { minPlatformVersion: '2.0' } })).status).toBe(400);
      expect((await publish('3.0.0', { compatibility: { minPlatformVersion: '2.0.0', maxPlatformVersion: '1.0.0' } })).status).toBe(400);
      expect((await publish('3.0.0', { checksum: `sha256:${'0'.repeat(64)}` })).status).toBe(400);
      const wrongVersion = await c().post(`/marketplace/plugins/${pluginId}/versions`, { version: '3.0.0', package: await pluginPackage({ name: 'versioned', version: '3.0.1' }) }, author);
      expect(wrongVersion.status).toBe(400);
      // An administrator may publish for the author.
      expect((await publish('3.0.0', { compatibility: { minPlatformVersion: '2.0.0' } }, admin)).status).toBe(201);
      expect((await c().get(`/marketplace/plugins/${pluginId}/versions/3.0.0`)).body).toMatchObject({
        compatible: false,
        compatibility: { minPlatformVersion: '2.0.0', maxPlatformVersion: null },
        publishedBy: admin.userId,
      });
    });

    it('answers 400 naming the bound when a compatibility bound is not SemVer, also beside a valid one (submission, publish, latest)', async () => {
      const bounds = [
        [{ minPlatformVersion: 'x', maxPlatformVersion: '2.0.0' }, 'compatibility.minPlatformVersion'],
        [{ minPlatformVersion: '1.0.0', maxPlatformVersion: 'x' }, 'compatibility.maxPlatformVersion'],
        [{ minPlatformVersion: 5, maxPlatformVersion: '2.0.0' }, 'compatibility.minPlatformVersion'],
        [{ minPlatformVersion: '1.0.0', maxPlatformVersion: ['2.0.0'] }, 'compatibility.maxPlatformVersion'],
        [{ minPlatformVersion: '99999999999999999999.0.0', maxPlatformVersion: '1.0.0' }, 'compatibility.minPlatformVersion'],
      ] as const;
      for (const [compatibility, path] of bounds) {
        const published = await publish('4.0.0', { compatibility });
        expect([compatibility, published.status, published.body.details?.map((d: { path: string }) => d.path)]).toEqual([compatibility, 400, [path]]);
        expect(published.body.message).toMatch(new RegExp(`^${path.replace('.', '\\.')} must be a SemVer version`));
        const submitted = await c().post('/marketplace/submit/plugin', { ...(await pluginSubmission('bounded-plugin', '1.0.0')), compatibility }, author);
        expect([compatibility, submitted.status, submitted.body.details?.map((d: { path: string }) => d.path)]).toEqual([compatibility, 400, [path]]);
      }
      expect((await c().get(`/marketplace/plugins/${pluginId}/versions/4.0.0`)).status).toBe(404);
      const latest = await c().post('/marketplace/versions/latest', { pluginIds: [pluginId], platformVersion: '1.0' });
      expect([latest.status, latest.body.details?.[0]?.path]).toEqual([400, 'platformVersion']);
    });

    it('takes an external https downloadUrl with its size and checksum, never a private address', async () => {
      const base = { fileSize: 1234, checksum: `sha256:${'a'.repeat(64)}` };
      for (const url of ['https://127.0.0.1/p.zip', 'https://10.1.2.3/p.zip', 'https://[::1]/p.zip', 'https://localhost/p.zip', 'https://169.254.169.254/latest', 'http://cdn.example.com/p.zip', 'https://intranet/p.zip', 'https://user:pw@cdn.example.com/p.zip', 'https://[::ffff:127.0.0.1]/p.zip']) {
        const res = await c().post(`/marketplace/plugins/${pluginId}/versions`, { version: '3.1.0', downloadUrl: url, ...base }, author);
        expect([url, res.status, res.body.details?.[0]?.path]).toEqual([url, 400, 'downloadUrl']);
      }
      expect((await c().post(`/marketplace/plugins/${pluginId}/versions`, { version: '3.1.0', downloadUrl: 'https://cdn.example.com/p.zip' }, author)).status).toBe(400);
      const ok = await c().post(`/marketplace/plugins/${pluginId}/versions`, { version: '3.1.0', downloadUrl: 'https://cdn.example.com/p.zip', ...base }, author);
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ downloadUrl: 'https://cdn.example.com/p.zip', ...base });
      expect((await c().http.get(`/marketplace/plugins/${pluginId}/versions/3.1.0/package`, { headers: c().headers() })).status).toBe(404);
    });

    it('serves a stored package with the size and checksum its version shows', async () => {
      const version = (await c().get(`/marketplace/plugins/${pluginId}/versions/1.2.0`)).body;
      expect(version.downloadUrl).toBe(`${market.url}/marketplace/plugins/${pluginId}/versions/1.2.0/package`);
      const res = await fetch(version.downloadUrl, { headers: c().headers() });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(version.fileSize);
      expect(sha256(bytes)).toBe(version.checksum);
      expect(res.headers.get('x-checksum')).toBe(version.checksum);
      expect((await fetch(version.downloadUrl)).status).toBe(401);
    });

    it('answers the newest compatible version of many plugins at once', async () => {
      const other = await publishedPlugin(c(), author, admin, await pluginSubmission('other-plugin', '0.5.0'));
      const pending = (await c().post('/marketplace/submit/plugin', await pluginSubmission('still-pending'), author)).body.id;
      const res = await c().post('/marketplace/versions/latest', { pluginIds: [pluginId, other, pending, '00000000-0000-4000-8000-000000000000'] });
      expect(res.status).toBe(200);
      expect(res.body.platformVersion).toBe('1.4.0');
      const byPlugin = Object.fromEntries(res.body.data.map((v: { pluginId: string; version: string }) => [v.pluginId, v.version]));
      // 3.1.0 (no bounds) is newest; 3.0.0 needs platform 2.0.0; 2.0.0-beta.1 is a prerelease.
      expect(byPlugin).toEqual({ [pluginId]: '3.1.0', [other]: '0.5.0' });
      const old = await c().post('/marketplace/versions/latest', { pluginIds: [pluginId], platformVersion: '2.1.0', includePrereleases: true });
      expect(old.body.data[0]).toMatchObject({ version: '3.1.0', compatible: true });
      expect((await c().post('/marketplace/versions/latest', { pluginIds: ['nope'] })).status).toBe(400);
      expect((await c().post('/marketplace/versions/latest', { pluginIds: [pluginId], platformVersion: '1.0' })).status).toBe(400);
      expect((await c().post('/marketplace/versions/latest', {})).status).toBe(400);
    });
  });

  describe('licenses', () => {
    let paidId: string;
    beforeAll(async () => {
      paidId = await publishedPlugin(c(), author, admin, await pluginSubmission('paid-one', '1.0.0', { isPaid: true, price: 9.99 }));
    });

    it('validates free plugins always and paid ones only with an active, unexpired license', async () => {
      const buyer = aMarketUser();
      const validate = async (id: string, userId: string) => (await c().get(`/marketplace/licenses/validate?pluginId=${id}&userId=${userId}`)).body;
      expect(await validate(pluginId, buyer.userId)).toEqual({ valid: true, reason: 'free' });
      expect(await validate(paidId, buyer.userId)).toEqual({ valid: false, reason: 'no_license' });
      expect(await validate('00000000-0000-4000-8000-000000000000', buyer.userId)).toEqual({ valid: false, reason: 'plugin_not_found' });

      expect((await c().post(`/marketplace/plugins/${paidId}/licenses`, { userId: buyer.userId }, reader)).status).toBe(403);
      expect((await c().post(`/marketplace/plugins/${pluginId}/licenses`, { userId: buyer.userId }, author)).status).toBe(400);
      expect((await c().post(`/marketplace/plugins/${paidId}/licenses`, { userId: 'someone' }, author)).status).toBe(400);
      const issued = await c().post(`/marketplace/plugins/${paidId}/licenses`, { userId: buyer.userId, expiresAt: '2026-03-02T10:00:00Z' }, author);
      expect(issued.status).toBe(201);
      expect(issued.body).toMatchObject({ pluginId: paidId, userId: buyer.userId, status: 'active', key: expect.stringMatching(/^mpl_/), expiresAt: '2026-03-02T10:00:00.000Z' });
      expect(issued.body.keyHint).toBe(issued.body.key.slice(-4));
      const listed = await c().get(`/marketplace/plugins/${paidId}/licenses`, admin);
      expect(listed.body).toHaveLength(1);
      expect(listed.body[0].key).toBeUndefined();

      expect(await validate(paidId, buyer.userId)).toEqual({ valid: true, expiresAt: '2026-03-02T10:00:00.000Z' });
      now = new Date('2026-03-02T10:00:01Z');
      expect(await validate(paidId, buyer.userId)).toEqual({ valid: false, reason: 'license_expired' });
      await c().post(`/marketplace/plugins/${paidId}/licenses`, { userId: buyer.userId }, admin);
      expect(await validate(paidId, buyer.userId)).toEqual({ valid: true, expiresAt: null });
      expect((await c().delete(`/marketplace/plugins/${paidId}/licenses/${buyer.userId}`, author)).body.status).toBe('revoked');
      expect(await validate(paidId, buyer.userId)).toEqual({ valid: false, reason: 'license_revoked' });

      // A signed-in user may ask about themself only.
      expect((await c().get(`/marketplace/licenses/validate?pluginId=${paidId}&userId=${buyer.userId}`, reader)).status).toBe(403);
      expect((await c().get(`/marketplace/licenses/validate?pluginId=${paidId}&userId=${buyer.userId}`, buyer)).status).toBe(200);
      expect((await c().get(`/marketplace/licenses/validate?pluginId=${paidId}`)).status).toBe(400);
      expect((await c().get(`/marketplace/licenses/validate?pluginId=x&userId=${buyer.userId}`)).status).toBe(400);
    });
  });
});
