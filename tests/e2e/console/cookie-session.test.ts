import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

const CONSOLE = { 'X-AP-Session': 'cookie' };

/** The value of the `ap_refresh` cookie a response sets, and its attributes. */
function refreshCookie(headers: Headers): { value: string; attributes: string } | undefined {
  const line = headers.getSetCookie().find((c) => c.startsWith('ap_refresh='));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';');
  return { value: pair!.slice('ap_refresh='.length), attributes: attributes.map((a) => a.trim().toLowerCase()).join('; ') };
}

describe('console session: the refresh token in an HttpOnly cookie', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack?.close());

  async function consoleSignIn() {
    const user = await registerUser(stack.client);
    const res = await stack.client.post('/api/auth/login', { email: user.email, password: user.password }, { headers: CONSOLE });
    expect(res.status).toBe(200);
    return { user, res, cookie: refreshCookie(res.headers)! };
  }
  const withCookie = (value: string, extra: Record<string, string> = CONSOLE) => ({ headers: { Cookie: `ap_refresh=${value}`, ...extra } });

  it('sets the cookie HttpOnly, SameSite=Strict, scoped to the auth paths, and leaves the token out of the body', async () => {
    const { res, cookie } = await consoleSignIn();
    expect(cookie.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(cookie.attributes).toContain('httponly');
    expect(cookie.attributes).toContain('samesite=strict');
    expect(cookie.attributes).toContain('path=/api/auth');
    expect(cookie.attributes).not.toContain('secure'); // plain http here; over https (or a trusted proxy's) it is Secure
    expect(cookie.attributes).toMatch(/expires=/);
    expect(res.body.refresh_token).toBeUndefined();
    expect(res.body.access_token).toEqual(expect.any(String));
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('registering from the console starts a cookie session too', async () => {
    const res = await stack.client.post('/api/auth/register', { email: `c${Date.now()}@example.com`, password: 'correct horse battery', displayName: 'C' }, { headers: CONSOLE });
    expect(res.status).toBe(201);
    expect(res.body.refresh_token).toBeUndefined();
    expect(refreshCookie(res.headers)?.attributes).toContain('httponly');
  });

  it('rotates the cookie on refresh; a cookie spent a moment ago (a reload, a second tab) still rotates in the same family', async () => {
    const { cookie } = await consoleSignIn();
    const first = await stack.client.post('/api/auth/refresh', undefined, withCookie(cookie.value));
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['access_token']);
    const rotated = refreshCookie(first.headers)!;
    expect(rotated.value).not.toBe(cookie.value);
    expect((await stack.client.get('/api/auth/me', { token: first.body.access_token })).status).toBe(200);

    // The reload that cut off the first answer sends the spent cookie again: a new pair, and the family stands.
    const replay = await stack.client.post('/api/auth/refresh', undefined, withCookie(cookie.value));
    expect(replay.status).toBe(200);
    const again = refreshCookie(replay.headers)!;
    expect(again.value).not.toBe(rotated.value);
    expect((await stack.client.post('/api/auth/refresh', undefined, withCookie(rotated.value))).status).toBe(200);
    expect((await stack.client.post('/api/auth/refresh', undefined, withCookie(again.value))).status).toBe(200);
    // Several tabs starting at once with one cookie all get a session.
    const tabs = await Promise.all([1, 2, 3].map(() => stack.client.post('/api/auth/refresh', undefined, withCookie(again.value))));
    expect(tabs.map((t) => t.status)).toEqual([200, 200, 200]);
  });

  it('a spent body token is still refused at once and revokes its family, cookie included', async () => {
    const user = await registerUser(stack.client);
    const next = await stack.client.post('/api/auth/refresh', { refresh_token: user.refresh_token });
    expect(next.status).toBe(200);
    expect((await stack.client.post('/api/auth/refresh', { refresh_token: user.refresh_token })).status).toBe(401);
    // The family is revoked: even the cookie channel's grace does not bring its newest token back.
    const asCookie = await stack.client.post('/api/auth/refresh', undefined, withCookie(next.body.refresh_token));
    expect(asCookie.status).toBe(401);
    expect(refreshCookie(asCookie.headers)?.value).toBe(''); // cleared
  });

  it('refuses a cookie refresh without the CSRF header (403), spending nothing', async () => {
    const { cookie } = await consoleSignIn();
    const forged = await stack.client.post('/api/auth/refresh', undefined, withCookie(cookie.value, {}));
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ statusCode: 403, message: expect.stringContaining('X-AP-Session') });
    expect((await stack.client.post('/api/auth/refresh', undefined, withCookie(cookie.value))).status).toBe(200);
  });

  it('sign-out revokes the family and clears the cookie; the old cookie no longer refreshes', async () => {
    const { cookie } = await consoleSignIn();
    const out = await stack.client.post('/api/auth/logout', undefined, withCookie(cookie.value));
    expect(out.status).toBe(204);
    expect(refreshCookie(out.headers)).toMatchObject({ value: '' });
    expect(refreshCookie(out.headers)!.attributes).toMatch(/expires=thu, 01 jan 1970/);
    const reused = await stack.client.post('/api/auth/refresh', undefined, withCookie(cookie.value));
    expect(reused.status).toBe(401);
  });

  it('signing out with nothing to sign out is still a 204, and a malformed body token is a 400', async () => {
    expect((await stack.client.post('/api/auth/logout', {}, { headers: CONSOLE })).status).toBe(204);
    expect((await stack.client.post('/api/auth/logout', { refresh_token: 'not-a-token' })).status).toBe(204);
    expect((await stack.client.post('/api/auth/logout', { refresh_token: 42 })).status).toBe(400);
  });

  it('leaves the bearer flow unchanged: body tokens in and out, no cookie', async () => {
    const user = await registerUser(stack.client);
    expect(user.refresh_token).toEqual(expect.any(String));
    const res = await stack.client.post('/api/auth/refresh', { refresh_token: user.refresh_token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(refreshCookie(res.headers)).toBeUndefined();
    // A bearer client signs out by its body token.
    expect((await stack.client.post('/api/auth/logout', { refresh_token: res.body.refresh_token })).status).toBe(204);
    expect((await stack.client.post('/api/auth/refresh', { refresh_token: res.body.refresh_token })).status).toBe(401);
  });
});
