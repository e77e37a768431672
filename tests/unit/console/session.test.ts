import { Session, SessionError } from '../../../apps/console/src/lib/session';
import { cookieJarFetch } from '../../console/support/cookie-jar-fetch';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Access tokens of this stack live 2 seconds, so expiry is real and quick. */
const TTL_SECONDS = 2;

/** The console's session logic in Node, against the real core API (cookies kept as a browser tab keeps them). */
describe('console session: memory-only access token, cookie refresh', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ accessTokenTtlSeconds: TTL_SECONDS });
  });
  afterAll(() => stack?.close());

  async function signedIn() {
    const user = await registerUser(stack.client);
    const jar = cookieJarFetch();
    const session = new Session(jar.fetch, stack.listening.url);
    await session.signIn('login', { email: user.email, password: user.password });
    return { user, jar, session };
  }
  const me = (session: Session) => session.fetch(new Request(`${stack.listening.url}/api/auth/me`));

  it('signs in with the refresh token only in the HttpOnly cookie, never in the session object', async () => {
    const { user, jar, session } = await signedIn();
    expect(session.getState()).toEqual({ status: 'signed-in', user: expect.objectContaining({ email: user.email }) });
    expect(jar.cookies.get('ap_refresh')).toEqual({ value: expect.any(String), path: '/api/auth' });
    expect(JSON.stringify(session)).not.toContain(jar.cookies.get('ap_refresh')!.value);
    expect((await me(session)).status).toBe(200);
  });

  it('refreshes once, silently, when the access token has expired, and retries the request', async () => {
    const { jar, session } = await signedIn();
    const before = jar.cookies.get('ap_refresh')!.value;
    await sleep((TTL_SECONDS + 1) * 1000);
    const res = await me(session);
    expect(res.status).toBe(200);
    expect(jar.cookies.get('ap_refresh')!.value).not.toBe(before);
    expect(session.getState().status).toBe('signed-in');
  });

  it('shares one refresh among requests failing together (a second would spend the token twice and revoke the family)', async () => {
    const { jar, session } = await signedIn();
    const before = jar.cookies.get('ap_refresh')!.value;
    await sleep((TTL_SECONDS + 1) * 1000);
    const answers = await Promise.all(Array.from({ length: 5 }, () => me(session)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const after = jar.cookies.get('ap_refresh')!.value;
    expect(after).not.toBe(before);
    // The family is alive: the rotated cookie still refreshes.
    expect(await session.refresh()).toBe(true);
  });

  it('signs the console out (reason: expired) when the refresh is refused, answering the original 401', async () => {
    const { jar, session } = await signedIn();
    // The session was signed out elsewhere: the family is revoked on the server.
    await stack.client.post('/api/auth/logout', undefined, { headers: { Cookie: `ap_refresh=${jar.cookies.get('ap_refresh')!.value}`, 'X-AP-Session': 'cookie' } });
    await sleep((TTL_SECONDS + 1) * 1000);
    const res = await me(session);
    expect(res.status).toBe(401);
    expect(session.getState()).toEqual({ status: 'signed-out', reason: 'expired' });
    expect(session.hasAccessToken()).toBe(false);
  });

  it('restores a session from the cookie alone (a reload), and not after signing out', async () => {
    const { user, jar, session } = await signedIn();
    const reloaded = new Session(jar.fetch, stack.listening.url);
    await reloaded.restore();
    expect(reloaded.getState()).toEqual({ status: 'signed-in', user: expect.objectContaining({ id: user.user.id }) });

    const spent = jar.cookies.get('ap_refresh')!.value;
    await reloaded.signOut();
    expect(reloaded.getState()).toEqual({ status: 'signed-out', reason: 'signed-out' });
    expect(jar.cookies.has('ap_refresh')).toBe(false);
    const again = new Session(jar.fetch, stack.listening.url);
    await again.restore();
    expect(again.getState()).toEqual({ status: 'signed-out' });
    // The cookie of before the sign-out is dead on the server too.
    const replay = await stack.client.post('/api/auth/refresh', undefined, { headers: { Cookie: `ap_refresh=${spent}`, 'X-AP-Session': 'cookie' } });
    expect(replay.status).toBe(401);
    expect(session.getState().status).toBe('signed-in'); // the first tab only learns on its next refresh
  });

  it('throws the API’s message on a wrong password and stays signed out', async () => {
    const user = await registerUser(stack.client);
    const session = new Session(cookieJarFetch().fetch, stack.listening.url);
    const failure = await session.signIn('login', { email: user.email, password: 'not the password' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SessionError);
    expect(failure).toMatchObject({ status: 401, message: expect.stringMatching(/e-mail or password/i) });
    expect(session.getState()).toEqual({ status: 'unknown' });
  });
});
