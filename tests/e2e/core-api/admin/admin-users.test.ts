import { anOwnerWithKey, withKey } from '../../public-api/public-api-support';
import { ADMIN_EMAIL, registerUser, startCoreApi, startSecondCoreApi, type SecondInstance, type TestStack } from '../../../support/test-stack';

const REDIS_URL = process.env.TEST_REDIS_URL;
/** A second admin by ADMIN_EMAILS: the stack's own (ADMIN_EMAIL) is registered by `setPlan`. */
const CONSOLE_ADMIN = 'console-admin@platform.test';
const ADMIN_EMAILS = `${ADMIN_EMAIL},${CONSOLE_ADMIN}`;

async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const total = (res: { headers: Headers }) => Number(res.headers.get('x-total-count'));

describe('core API: admin users', () => {
  let stack: TestStack;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  const auditOf = async (action: string, resourceId: string | null) =>
    (await stack.infra.dataSource.query(
      `SELECT actor_id, outcome, details FROM audit_records WHERE action = $1 AND resource_id IS NOT DISTINCT FROM $2 ORDER BY seq`,
      [action, resourceId],
    )) as Array<{ actor_id: string | null; outcome: string; details: { status: number } }>;

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, env: { ADMIN_EMAILS } });
    admin = await registerUser(stack.client, { email: CONSOLE_ADMIN });
  });
  afterAll(() => stack.close());

  const list = (query: string, token = admin.access_token) => stack.client.get(`/api/admin/users${query}`, { token });

  it('is for admins only: 401 without a token, 403 for other roles, on every endpoint, and refusals are audited', async () => {
    const user = await registerUser(stack.client);
    const target = await registerUser(stack.client);
    const calls = [
      (token?: string) => stack.client.get('/api/admin/users', { token }),
      (token?: string) => stack.client.put(`/api/admin/users/${target.user.id}/role`, { role: 'admin' }, { token }),
      (token?: string) => stack.client.put(`/api/admin/users/${target.user.id}/disabled`, { disabled: true }, { token }),
    ];
    for (const call of calls) {
      const anonymous = await call();
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
      const refused = await call(user.access_token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('Forbidden');
    }
    const stored = await stack.infra.dataSource.query(`SELECT role, disabled FROM users WHERE id = $1`, [target.user.id]);
    expect(stored[0]).toEqual({ role: 'developer', disabled: false });
    expect((await auditOf('admin.role_change', target.user.id)).map((r) => [r.actor_id, r.outcome])).toEqual([
      [null, 'failure'],
      [user.user.id, 'failure'],
    ]);
    expect((await auditOf('admin.users_list', null)).some((r) => r.actor_id === user.user.id && r.details.status === 403)).toBe(true);
  });

  it('lists accounts newest first with search, role, plan and disabled filters and paging', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const alice = await registerUser(stack.client, { email: `alice-${tag}@example.com`, displayName: 'Alice' });
    const bob = await registerUser(stack.client, { email: `bob-${tag}@example.com`, displayName: `Bob ${tag}_x` });
    const carol = await registerUser(stack.client, { email: `carol-${tag}@example.com`, displayName: 'Carol' });
    await stack.setPlan(bob.user.id, 'pro');
    expect((await stack.client.put(`/api/admin/users/${carol.user.id}/role`, { role: 'user' }, { token: admin.access_token })).status).toBe(200);
    expect((await stack.client.put(`/api/admin/users/${alice.user.id}/disabled`, { disabled: true }, { token: admin.access_token })).status).toBe(200);

    const found = await list(`?search=${tag}`);
    expect(found.status).toBe(200);
    expect(Number(found.headers.get('x-total-count'))).toBe(3);
    expect(found.body.map((u: { email: string }) => u.email)).toEqual([carol.email, bob.email, alice.email]);
    expect(found.body[1]).toEqual({
      id: bob.user.id,
      email: bob.email,
      displayName: `Bob ${tag}_x`,
      role: 'developer',
      storedRole: 'developer',
      plan: 'pro',
      disabled: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(found.body)).not.toMatch(/password|hash/i);

    // Search is by e-mail or name, case-insensitive, and `_`/`%` match only themselves.
    expect((await list(`?search=${tag.toUpperCase()}_X`)).body.map((u: { id: string }) => u.id)).toEqual([bob.user.id]);
    expect(total(await list(`?search=${tag}%25`))).toBe(0);
    expect((await list(`?search=${tag}&plan=pro`)).body.map((u: { id: string }) => u.id)).toEqual([bob.user.id]);
    expect(total(await list(`?search=${tag}&plan=free`))).toBe(2);
    expect((await list(`?search=${tag}&role=user`)).body.map((u: { id: string }) => u.id)).toEqual([carol.user.id]);
    expect((await list(`?search=${tag}&disabled=true`)).body.map((u: { id: string }) => u.id)).toEqual([alice.user.id]);
    expect(total(await list(`?search=${tag}&disabled=false`))).toBe(2);
    // ADMIN_EMAILS make an admin whatever is stored.
    const admins = await list('?role=admin&limit=100');
    expect(admins.body.map((u: { id: string }) => u.id)).toContain(admin.user.id);

    const page2 = await list(`?search=${tag}&limit=2&page=2`);
    expect(total(page2)).toBe(3);
    expect(page2.body.map((u: { id: string }) => u.id)).toEqual([alice.user.id]);
    const past = await list(`?search=${tag}&limit=2&page=9`);
    expect([past.body, total(past)]).toEqual([[], 3]);
  });

  it.each([
    ['?role=owner', 'role'],
    ['?plan=gold', 'plan'],
    ['?disabled=yes', 'disabled'],
    ['?limit=1000', 'limit'],
    ['?page=0', 'page'],
    [`?search=${'x'.repeat(201)}`, 'search'],
  ])('answers 400 to %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.details?.[0]?.path ?? res.body.message).toContain(field);
  });

  it('changes a role, which applies to the next request, and refuses bad input', async () => {
    const user = await registerUser(stack.client);
    expect((await list('', user.access_token)).status).toBe(403);
    const promoted = await stack.client.put(`/api/admin/users/${user.user.id}/role`, { role: 'admin' }, { token: admin.access_token });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: user.user.id, role: 'admin', storedRole: 'admin' });
    // The same access token, issued before the change, now acts as an admin.
    expect((await list('', user.access_token)).status).toBe(200);
    expect((await stack.client.get('/api/users/me', { token: user.access_token })).body.role).toBe('admin');

    const path = `/api/admin/users/${user.user.id}/role`;
    for (const body of [{}, { role: 'owner' }, { role: 1 }, { role: ['admin'] }]) {
      expect((await stack.client.put(path, body, { token: admin.access_token })).status).toBe(400);
    }
    expect((await stack.client.put('/api/admin/users/5f0c2b9e-8f7a-4d7e-9a51-1f2e3d4c5b6a/role', { role: 'user' }, { token: admin.access_token })).status).toBe(404);
    expect((await stack.client.put('/api/admin/users/not-a-uuid/role', { role: 'user' }, { token: admin.access_token })).status).toBe(404);
    // An admin cannot demote themselves (the platform would lose its admin by a slip).
    const self = await stack.client.put(`/api/admin/users/${user.user.id}/role`, { role: 'user' }, { token: user.access_token });
    expect(self.status).toBe(409);
    expect((await stack.infra.dataSource.query(`SELECT role FROM users WHERE id = $1`, [user.user.id]))[0].role).toBe('admin');

    const audited = await auditOf('admin.role_change', user.user.id);
    expect(audited[0]).toMatchObject({ actor_id: admin.user.id, outcome: 'success', details: { status: 200 } });
    expect(audited.at(-1)).toMatchObject({ actor_id: user.user.id, outcome: 'failure', details: { status: 409 } });
  });

  it("disables an account: its access and refresh tokens and API keys stop at once; enabling lets it sign in again", async () => {
    const owner = await anOwnerWithKey(stack);
    const session = { access: owner.token, refresh: owner.refresh_token };
    expect((await stack.client.get('/api/v1/app', withKey(owner.key.key))).status).toBe(200);
    expect((await stack.client.get('/api/users/me', { token: session.access })).status).toBe(200);

    const disabled = await stack.client.put(`/api/admin/users/${owner.user.id}/disabled`, { disabled: true }, { token: admin.access_token });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: owner.user.id, disabled: true });

    expect((await stack.client.get('/api/users/me', { token: session.access })).status).toBe(401);
    expect((await stack.client.get('/api/v1/app', withKey(owner.key.key))).status).toBe(401);
    expect((await stack.client.post('/api/v1/chat', { message: 'hi' }, withKey(owner.key.key))).status).toBe(401);
    expect((await stack.client.post('/api/auth/refresh', { refresh_token: session.refresh })).status).toBe(401);
    expect((await stack.client.post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(401);

    const enabled = await stack.client.put(`/api/admin/users/${owner.user.id}/disabled`, { disabled: false }, { token: admin.access_token });
    expect(enabled.status).toBe(200);
    expect(enabled.body.disabled).toBe(false);
    // The key works again; the refresh token was revoked for good, so the account signs in afresh.
    expect((await stack.client.get('/api/v1/app', withKey(owner.key.key))).status).toBe(200);
    expect((await stack.client.post('/api/auth/refresh', { refresh_token: session.refresh })).status).toBe(401);
    expect((await stack.client.post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(200);

    expect((await auditOf('admin.user_disabled', owner.user.id)).map((r) => [r.actor_id, r.outcome])).toEqual([
      [admin.user.id, 'success'],
      [admin.user.id, 'success'],
    ]);
  });

  it('refuses bad disable requests and an admin disabling themselves', async () => {
    const user = await registerUser(stack.client);
    const path = `/api/admin/users/${user.user.id}/disabled`;
    for (const body of [{}, { disabled: 'true' }, { disabled: 1 }, { disabled: null }]) {
      expect((await stack.client.put(path, body, { token: admin.access_token })).status).toBe(400);
    }
    expect((await stack.client.put('/api/admin/users/5f0c2b9e-8f7a-4d7e-9a51-1f2e3d4c5b6a/disabled', { disabled: true }, { token: admin.access_token })).status).toBe(404);
    expect((await stack.client.put(`/api/admin/users/${admin.user.id}/disabled`, { disabled: true }, { token: admin.access_token })).status).toBe(409);
    expect((await stack.client.get('/api/users/me', { token: admin.access_token })).status).toBe(200);
    expect((await stack.client.get('/api/users/me', { token: user.access_token })).status).toBe(200);
  });
});

(REDIS_URL ? describe : describe.skip)('core API: a disabled account across two instances on Redis', () => {
  let stack: TestStack;
  let second: SecondInstance;

  beforeAll(async () => {
    // A long time to live: only the invalidation can make the second instance refuse in time.
    stack = await startCoreApi({ providers: true, env: { REDIS_URL, CACHE_TTL_MS: '600000', ADMIN_EMAILS } });
    second = await startSecondCoreApi(stack);
  });
  afterAll(async () => {
    await second.close();
    await stack.close();
  });

  it("refuses the account's tokens and API keys on the other instance at once", async () => {
    const admin = await registerUser(stack.client, { email: CONSOLE_ADMIN });
    const owner = await anOwnerWithKey(stack);
    // The second instance now holds the user and the key in its own memory.
    expect((await second.client.get('/api/users/me', { token: owner.token })).status).toBe(200);
    expect((await second.client.get('/api/v1/app', withKey(owner.key.key))).status).toBe(200);

    expect((await stack.client.put(`/api/admin/users/${owner.user.id}/disabled`, { disabled: true }, { token: admin.access_token })).status).toBe(200);
    const me = await eventually(() => second.client.get('/api/users/me', { token: owner.token }), (res) => res.status === 401);
    expect(me.status).toBe(401);
    const app = await eventually(() => second.client.get('/api/v1/app', withKey(owner.key.key)), (res) => res.status === 401);
    expect(app.status).toBe(401);

    expect((await second.client.put(`/api/admin/users/${owner.user.id}/disabled`, { disabled: false }, { token: admin.access_token })).status).toBe(200);
    const back = await eventually(() => stack.client.get('/api/v1/app', withKey(owner.key.key)), (res) => res.status === 200);
    expect(back.status).toBe(200);
  });
});
