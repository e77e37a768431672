import jwt from 'jsonwebtoken';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

describe('core API: authentication', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ env: { ADMIN_EMAILS: 'boss@example.com' } });
  });
  afterAll(() => stack.close());
  const api = () => stack.client;

  it('registers a user and answers 201 with the user and both tokens', async () => {
    const res = await api().post('/api/auth/register', { email: 'Ann@Example.com', password: 'long enough pw', displayName: 'Ann' });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({ id: expect.any(String), email: 'ann@example.com', displayName: 'Ann', role: 'developer', createdAt: expect.any(String) });
    expect(res.body.access_token).toEqual(expect.any(String));
    expect(res.body.refresh_token).toEqual(expect.any(String));
  });

  it('answers 409 for a duplicate e-mail, whatever its case', async () => {
    const first = await registerUser(api());
    const res = await api().post('/api/auth/register', { email: first.email.toUpperCase(), password: 'another password', displayName: 'X' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: expect.any(String), error: 'Conflict' });
  });

  it.each([
    [{ email: 'not-an-email', password: 'long enough pw', displayName: 'A' }, 'email'],
    [{ email: 'a@example.com', password: 'short', displayName: 'A' }, 'password'],
    [{ email: 'a@example.com', password: 'long enough pw' }, 'displayName'],
    [{ email: 42, password: 'long enough pw', displayName: 'A' }, 'email'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const res = await api().post('/api/auth/register', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Bad Request');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('logs in with the right password and answers the same 401 for a wrong password or an unknown e-mail', async () => {
    const user = await registerUser(api());
    const ok = await api().post('/api/auth/login', { email: user.email, password: user.password });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(user.user.id);
    const wrong = await api().post('/api/auth/login', { email: user.email, password: 'wrong password!' });
    const unknown = await api().post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong password!' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('slows down repeated failed logins for one e-mail with 429 and Retry-After', async () => {
    const user = await registerUser(api());
    for (let i = 0; i < 5; i++) expect((await api().post('/api/auth/login', { email: user.email, password: 'nope nope nope' })).status).toBe(401);
    const blocked = await api().post('/api/auth/login', { email: user.email, password: user.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('gives the admin role to ADMIN_EMAILS', async () => {
    const boss = await registerUser(api(), { email: 'boss@example.com' });
    expect(boss.user.role).toBe('admin');
  });

  it('answers GET /api/auth/me with the current user, and 401 without a token', async () => {
    const user = await registerUser(api());
    const me = await api().get('/api/auth/me', { token: user.access_token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
    expect((await api().get('/api/auth/me')).status).toBe(401);
  });

  describe('refuses tokens that are not genuine access tokens', () => {
    it('a forged signature', async () => {
      const user = await registerUser(api());
      const forged = jwt.sign({ sub: user.user.id, role: 'admin', typ: 'access' }, 'not-the-secret-not-the-secret-1234', { algorithm: 'HS256' });
      expect((await api().get('/api/auth/me', { token: forged })).status).toBe(401);
    });
    it('an alg:none token', async () => {
      const user = await registerUser(api());
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const payload = Buffer.from(JSON.stringify({ sub: user.user.id, role: 'admin', typ: 'access' })).toString('base64url');
      expect((await api().get('/api/auth/me', { token: `${header}.${payload}.` })).status).toBe(401);
    });
    it('an expired token', async () => {
      const user = await registerUser(api());
      const decoded = jwt.decode(user.access_token) as Record<string, unknown>;
      const expired = jwt.sign({ ...decoded, iat: 1, exp: 2 }, stack.config.jwtSecret, { algorithm: 'HS256' });
      const res = await api().get('/api/auth/me', { token: expired });
      // It says what happened and what to do; garbage keeps the generic answer (below).
      expect(res.body).toEqual({ statusCode: 401, message: 'The access token has expired; get a new one from POST /api/auth/refresh with your refresh token', error: 'Unauthorized' });
    });
    it('a refresh token used as an access token', async () => {
      const user = await registerUser(api());
      expect((await api().get('/api/auth/me', { token: user.refresh_token })).status).toBe(401);
    });
    it('garbage', async () => {
      const res = await api().get('/api/auth/me', { token: 'abc.def.ghi' });
      expect(res.body).toEqual({ statusCode: 401, message: 'Invalid or expired token', error: 'Unauthorized' });
    });
  });

  it('trades a refresh token once; reusing it revokes the whole family', async () => {
    const user = await registerUser(api());
    const first = await api().post('/api/auth/refresh', { refresh_token: user.refresh_token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const reuse = await api().post('/api/auth/refresh', { refresh_token: user.refresh_token });
    expect(reuse.status).toBe(401);
    // The token issued before the reuse belongs to the same family, so it is dead too.
    const descendant = await api().post('/api/auth/refresh', { refresh_token: first.body.refresh_token });
    expect(descendant.status).toBe(401);
  });

  it('lets only one of two concurrent refreshes with the same token succeed', async () => {
    const user = await registerUser(api());
    const results = await Promise.all([1, 2].map(() => api().post('/api/auth/refresh', { refresh_token: user.refresh_token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('changes the password, revoking every refresh token', async () => {
    const user = await registerUser(api());
    const wrong = await api().post('/api/auth/change-password', { currentPassword: 'not it at all', newPassword: 'brand new secret' }, { token: user.access_token });
    expect(wrong.status).toBe(400);
    const res = await api().post('/api/auth/change-password', { currentPassword: user.password, newPassword: 'brand new secret' }, { token: user.access_token });
    expect(res.status).toBe(200);
    expect((await api().post('/api/auth/refresh', { refresh_token: user.refresh_token })).status).toBe(401);
    expect((await api().post('/api/auth/login', { email: user.email, password: 'brand new secret' })).status).toBe(200);
  });

  it('lists no OAuth providers until one is configured', async () => {
    const res = await api().get('/api/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});
