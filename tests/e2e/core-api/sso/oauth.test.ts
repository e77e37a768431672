import { randomBytes } from 'node:crypto';
import { FakeOAuthProviders, type FakePerson, type GoogleFault } from '../../../support/fake-oauth-providers';
import { addMember, makeTeam } from '../../../support/sso-teams';
import { registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';

const SUCCESS_URL = 'https://app.example.test/oauth/done';

describe('core API: sign-in with GitHub and Google', () => {
  let fake: FakeOAuthProviders;
  let stack: TestStack;
  beforeAll(async () => {
    fake = await FakeOAuthProviders.start();
    stack = await startCoreApi({ env: { ...fake.env, OAUTH_SUCCESS_URL: SUCCESS_URL } });
  });
  afterAll(async () => {
    await stack.close();
    await fake.close();
  });

  let n = 0;
  const person = (overrides: Partial<FakePerson> = {}): FakePerson => ({
    id: String(1000 + ++n),
    email: `oauth${n}-${randomBytes(3).toString('hex')}@example.com`,
    verified: true,
    name: `Octo Person ${n}`,
    ...overrides,
  });

  const noFollow = (path: string) => fetch(stack.client.baseUrl + path, { redirect: 'manual' });

  /** Starts at the platform, signs in at the provider, and comes back: the callback's response. */
  async function signIn(provider: 'github' | 'google', who: FakePerson) {
    const start = await noFollow(`/api/auth/${provider}`);
    expect(start.status).toBe(302);
    const authorizeUrl = start.headers.get('location')!;
    const code = fake.authorize(authorizeUrl, who);
    const state = new URL(authorizeUrl).searchParams.get('state')!;
    const callback = await noFollow(`/api/auth/${provider}/callback?code=${code}&state=${encodeURIComponent(state)}`);
    return { callback, code, state, authorizeUrl };
  }

  async function exchange(callback: Response) {
    expect(callback.status).toBe(302);
    const location = new URL(callback.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(SUCCESS_URL);
    expect(location.search).not.toMatch(/token/);
    return stack.client.post('/api/auth/oauth/exchange', { code: location.searchParams.get('code') });
  }

  it('lists the configured providers', async () => {
    const res = await stack.client.get('/api/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 'github', name: 'GitHub', authorizeUrl: '/api/auth/github' },
      { id: 'google', name: 'Google', authorizeUrl: '/api/auth/google' },
    ]);
  });

  it('redirects to the provider with state and an S256 PKCE challenge', async () => {
    for (const provider of ['github', 'google'] as const) {
      const res = await noFollow(`/api/auth/${provider}`);
      const url = new URL(res.headers.get('location')!);
      expect(url.href.startsWith(`${fake.url}/${provider}`)).toBe(true);
      expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('redirect_uri')).toBe(`${stack.client.baseUrl}/api/auth/${provider}/callback`);
    }
  });

  it.each(['github', 'google'] as const)('creates an account on the first %s sign-in and signs in to it again', async (provider) => {
    const who = person();
    const first = await exchange((await signIn(provider, who)).callback);
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe(who.email);
    expect(first.body.user.displayName).toBe(who.name);
    const me = await stack.client.get('/api/users/me/identities', { token: first.body.access_token });
    expect(me.body.hasPassword).toBe(false);
    expect(me.body.identities).toEqual([expect.objectContaining({ provider, email: who.email })]);
    const second = await exchange((await signIn(provider, who)).callback);
    expect(second.body.user.id).toBe(first.body.user.id);
  });

  it('links to the existing account with the same verified e-mail', async () => {
    const existing = await registerUser(stack.client);
    const who = person({ email: existing.email.toUpperCase() });
    const session = await exchange((await signIn('github', who)).callback);
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(existing.user.id);
    const google = await exchange((await signIn('google', person({ email: existing.email }))).callback);
    expect(google.body.user.id).toBe(existing.user.id);
    const ids = await stack.client.get('/api/users/me/identities', { token: existing.access_token });
    expect(ids.body.hasPassword).toBe(true);
    expect(ids.body.identities.map((i: { provider: string }) => i.provider).sort()).toEqual(['github', 'google']);
  });

  it.each(['github', 'google'] as const)('never links an unverified %s e-mail to an existing account, nor makes one for it', async (provider) => {
    const existing = await registerUser(stack.client);
    const { callback } = await signIn(provider, person({ email: existing.email, verified: false }));
    expect(callback.status).toBe(409);
    const ids = await stack.client.get('/api/users/me/identities', { token: existing.access_token });
    expect(ids.body.identities).toEqual([]);
    const fresh = await signIn(provider, person({ verified: false }));
    expect(fresh.callback.status).toBe(403);
  });

  it('refuses a state it did not issue, and a state used twice', async () => {
    const start = await noFollow('/api/auth/github');
    const code = fake.authorize(start.headers.get('location')!, person());
    const forged = await noFollow(`/api/auth/github/callback?code=${code}&state=${'x'.repeat(43)}`);
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    const missing = await noFollow(`/api/auth/github/callback?code=${code}`);
    expect(missing.status).toBe(400);
    // A state of one provider is no good at the other.
    const google = await noFollow('/api/auth/google');
    const googleState = new URL(google.headers.get('location')!).searchParams.get('state')!;
    expect((await noFollow(`/api/auth/github/callback?code=${code}&state=${googleState}`)).status).toBe(400);
  });

  it('refuses a reused code, whether the state comes again or fresh', async () => {
    const who = person();
    const { callback, code, state } = await signIn('google', who);
    expect(callback.status).toBe(302);
    expect((await noFollow(`/api/auth/google/callback?code=${code}&state=${state}`)).status).toBe(400);
    const again = await noFollow('/api/auth/google');
    const freshState = new URL(again.headers.get('location')!).searchParams.get('state')!;
    const reused = await noFollow(`/api/auth/google/callback?code=${code}&state=${freshState}`);
    expect(reused.status).toBe(401);
    const gh = await signIn('github', person());
    const ghAgain = await noFollow('/api/auth/github');
    const ghState = new URL(ghAgain.headers.get('location')!).searchParams.get('state')!;
    expect((await noFollow(`/api/auth/github/callback?code=${gh.code}&state=${ghState}`)).status).toBe(401);
  });

  it('exchanges the one-time code once', async () => {
    const { callback } = await signIn('github', person());
    const code = new URL(callback.headers.get('location')!).searchParams.get('code');
    expect((await stack.client.post('/api/auth/oauth/exchange', { code })).status).toBe(200);
    expect((await stack.client.post('/api/auth/oauth/exchange', { code })).status).toBe(401);
    expect((await stack.client.post('/api/auth/oauth/exchange', {})).status).toBe(400);
  });

  it('unlinks an identity, but not the last way to sign in', async () => {
    const who = person();
    const session = await exchange((await signIn('github', who)).callback);
    await exchange((await signIn('google', person({ email: who.email }))).callback);
    const token = session.body.access_token as string;
    const { identities } = (await stack.client.get('/api/users/me/identities', { token })).body as { identities: { id: string }[] };
    expect(identities).toHaveLength(2);
    expect((await stack.client.delete(`/api/users/me/identities/${identities[0]!.id}`, { token })).status).toBe(204);
    const last = await stack.client.delete(`/api/users/me/identities/${identities[1]!.id}`, { token });
    expect(last.status).toBe(409);
    const other = await registerUser(stack.client);
    expect((await stack.client.delete(`/api/users/me/identities/${identities[1]!.id}`, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.delete('/api/users/me/identities/not-an-id', { token })).status).toBe(404);
  });

  it('unlinking both of the last two identities at once leaves one', async () => {
    const who = person();
    const session = await exchange((await signIn('github', who)).callback);
    await exchange((await signIn('google', person({ email: who.email }))).callback);
    const token = session.body.access_token as string;
    const { identities } = (await stack.client.get('/api/users/me/identities', { token })).body as { identities: { id: string }[] };
    const answers = await Promise.all(identities.map((i) => stack.client.delete(`/api/users/me/identities/${i.id}`, { token })));
    expect(answers.map((a) => a.status).sort()).toEqual([204, 409]);
    expect((await stack.client.get('/api/users/me/identities', { token })).body.identities).toHaveLength(1);
  });

  it('refuses members of a team that enforces SSO, naming the SSO sign-in', async () => {
    const owner = await registerUser(stack.client);
    const team = await makeTeam(stack, owner.user.id);
    const member = await registerUser(stack.client);
    await addMember(stack, team.id, member.user.id, 'member');
    const sso = { protocol: 'oidc', enforced: true, oidc: { issuer: 'https://idp.example.test', clientId: 'c', clientSecret: 'a client secret' } };
    expect((await stack.client.put(`/api/sso/${team.slug}/config`, sso, { token: owner.access_token })).status).toBe(200);
    const { callback } = await signIn('github', person({ email: member.email }));
    expect(callback.status).toBe(403);
    expect(((await callback.json()) as { message: string }).message).toContain(`requires single sign-on: choose to sign in with your team's SSO and enter "${team.slug}"`);
  });

  describe('Google: an answer that fails verification is a 401, a provider down or answering garbage a 502', () => {
    afterEach(() => {
      fake.googleFault = undefined;
    });

    /** Signs in with the fault set: the callback's status and error body, and whether the person got an account. */
    async function faultySignIn(fault: GoogleFault) {
      fake.googleFault = fault;
      const who = person();
      const { callback } = await signIn('google', who);
      const body = (await callback.json()) as { statusCode: number; message: string; error: string };
      fake.googleFault = undefined;
      // Nothing was made for the person: a clean sign-in afterwards is their first (a new account, one identity).
      const session = await exchange((await signIn('google', who)).callback);
      const identities = (await stack.client.get('/api/users/me/identities', { token: session.body.access_token })).body.identities;
      return { status: callback.status, body, identities };
    }

    it.each(['expired', 'not-yet-valid', 'bad-signature', 'unknown-key', 'wrong-audience', 'wrong-issuer', 'wrong-nonce'] as const)('%s id token: 401, nothing made', async (fault) => {
      const { status, body, identities } = await faultySignIn(fault);
      expect([fault, status, body]).toEqual([fault, 401, { statusCode: 401, message: 'Google refused the sign-in or its answer failed verification; start the sign-in again', error: 'Unauthorized' }]);
      expect(identities).toHaveLength(1);
    });

    it.each(['server-error', 'unavailable-json', 'html', 'no-access-token', 'connection-reset'] as const)('%s: 502, nothing made', async (fault) => {
      const { status, body, identities } = await faultySignIn(fault);
      expect([fault, status, body]).toEqual([fault, 502, { statusCode: 502, message: 'Google could not be reached or gave an unusable answer', error: 'Bad Gateway' }]);
      expect(identities).toHaveLength(1);
    });
  });

  it('answers 404 for a provider that is not configured', async () => {
    const bare = await startCoreApi();
    try {
      expect((await bare.client.get('/api/auth/providers')).body).toEqual([]);
      const res = await fetch(`${bare.client.baseUrl}/api/auth/github`, { redirect: 'manual' });
      expect(res.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
