import { createHash } from 'node:crypto';
import { ApiKeyUsageTracker } from '../../../core/api-keys/use-cases/api-key-usage-tracker';
import { DATABASE_KINDS } from '../../support/test-database';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { createKey, withKey } from '../public-api/public-api-support';

const RAW_KEY = /^pk_live_[A-Za-z0-9_-]{43}$/;

describe.each(DATABASE_KINDS)('core API: API keys (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ database });
  });
  afterAll(() => stack.close());

  const anOwner = async () => {
    const owner = await userWithApplication(stack.client, { name: 'Key Owner' });
    await stack.setPlan(owner.user.id, 'pro');
    return owner;
  };

  it('shows the raw key once, at creation, and only its prefix and last four characters afterwards', async () => {
    const owner = await anOwner();
    const created = await stack.client.post('/api/api-keys', { name: 'Website', applicationId: owner.app.id, rateLimit: 120 }, { token: owner.token });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({
      id: expect.any(String),
      name: 'Website',
      applicationId: owner.app.id,
      keyPrefix: 'pk_live_',
      rateLimit: 120,
      requestCount: 0,
      lastUsedAt: null,
      isActive: true,
      revokedAt: null,
      key: expect.stringMatching(RAW_KEY),
    });
    const raw: string = created.body.key;
    expect(created.body.keyHint).toBe(raw.slice(-4));

    const list = await stack.client.get('/api/api-keys', { token: owner.token });
    expect(list.status).toBe(200);
    const { key: _shownOnce, ...view } = created.body;
    expect(list.body).toEqual([view]);
    expect(list.text).not.toContain(raw.slice(8, 40));
  });

  it('stores only the SHA-256 digest of the key', async () => {
    const owner = await anOwner();
    const { id, key } = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
    const rows: Record<string, unknown>[] = await stack.infra.dataSource.query(`SELECT * FROM api_keys WHERE id = $1`, [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(key.slice(8));
  });

  it('scopes a key to one application, or to all of the owner\'s with no applicationId', async () => {
    const owner = await anOwner();
    const all = await createKey(stack.client, owner.token, {});
    const explicitAll = await createKey(stack.client, owner.token, { applicationId: null });
    expect(all.applicationId).toBeNull();
    expect(explicitAll.applicationId).toBeNull();
    expect(all.rateLimit).toBe(60);
  });

  it("answers 404 when the scope names another user's application or no application", async () => {
    const owner = await anOwner();
    const other = await userWithApplication(stack.client, { name: 'Not Yours' });
    for (const applicationId of [other.app.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await stack.client.post('/api/api-keys', { applicationId }, { token: owner.token });
      expect(res.status).toBe(404);
    }
  });

  it.each([[9], [10_001], [10.5], ['100'], [null]])('refuses a rate limit of %j with a 400 naming rateLimit', async (rateLimit) => {
    const owner = await anOwner();
    const res = await stack.client.post('/api/api-keys', { rateLimit }, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('rateLimit');
  });

  it('accepts the bounds of the rate limit, 10 and 10,000 per minute', async () => {
    const owner = await anOwner();
    expect((await createKey(stack.client, owner.token, { rateLimit: 10 })).rateLimit).toBe(10);
    expect((await createKey(stack.client, owner.token, { rateLimit: 10_000 })).rateLimit).toBe(10_000);
  });

  it('revokes a key: listed as inactive, refused by the public API, revoking again changes nothing', async () => {
    const owner = await anOwner();
    const { id, key } = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
    expect((await stack.client.get('/api/v1/app', withKey(key))).status).toBe(200);
    const revoked = await stack.client.post(`/api/api-keys/${id}/revoke`, undefined, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, isActive: false, revokedAt: expect.any(String) });
    const refused = await stack.client.get('/api/v1/app', withKey(key));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ statusCode: 401, message: 'The API key has been revoked', error: 'Unauthorized' });
    const again = await stack.client.post(`/api/api-keys/${id}/revoke`, undefined, { token: owner.token });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
  });

  it('deletes a key: gone from the list and unknown to the public API', async () => {
    const owner = await anOwner();
    const { id, key } = await createKey(stack.client, owner.token, {});
    expect((await stack.client.delete(`/api/api-keys/${id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get('/api/api-keys', { token: owner.token })).body).toEqual([]);
    expect((await stack.client.get(`/api/v1/app?applicationId=${owner.app.id}`, withKey(key))).status).toBe(401);
  });

  it("answers 404 for another user's key on revoke and delete", async () => {
    const owner = await anOwner();
    const other = await registerUser(stack.client);
    const { id } = await createKey(stack.client, owner.token, {});
    expect((await stack.client.post(`/api/api-keys/${id}/revoke`, undefined, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.delete(`/api/api-keys/${id}`, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.get('/api/api-keys', { token: other.access_token })).body).toEqual([]);
    expect((await stack.client.get('/api/api-keys', { token: owner.token })).body[0].isActive).toBe(true);
  });

  it('counts requests and the last use in memory and writes them in one batch', async () => {
    const owner = await anOwner();
    const { id, key } = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
    for (let i = 0; i < 3; i++) expect((await stack.client.get('/api/v1/app', withKey(key))).status).toBe(200);
    const stored = async () => (await stack.infra.dataSource.query(`SELECT request_count, last_used_at FROM api_keys WHERE id = $1`, [id]))[0];
    expect(Number((await stored()).request_count)).toBe(0);
    const listed = (await stack.client.get('/api/api-keys', { token: owner.token })).body[0];
    expect(listed).toMatchObject({ requestCount: 3, lastUsedAt: expect.any(String) });

    await stack.core.container.get(ApiKeyUsageTracker).flush();
    expect(Number((await stored()).request_count)).toBe(3);
    expect(new Date((await stored()).last_used_at).toISOString()).toBe(listed.lastUsedAt);
    expect((await stack.client.get('/api/api-keys', { token: owner.token })).body[0].requestCount).toBe(3);
  });

  it("applies the plan's API-key limit, counting active keys only", async () => {
    const owner = await userWithApplication(stack.client, { name: 'Free Owner' });
    const first = await createKey(stack.client, owner.token, {});
    await createKey(stack.client, owner.token, {});
    const third = await stack.client.post('/api/api-keys', {}, { token: owner.token });
    expect(third.status).toBe(402);
    expect(third.body.message).toMatch(/API keys/);
    await stack.client.post(`/api/api-keys/${first.id}/revoke`, undefined, { token: owner.token });
    expect((await stack.client.post('/api/api-keys', {}, { token: owner.token })).status).toBe(201);
  });

  it('requires a bearer token', async () => {
    expect((await stack.client.get('/api/api-keys')).status).toBe(401);
    expect((await stack.client.post('/api/api-keys', {})).status).toBe(401);
  });
});
