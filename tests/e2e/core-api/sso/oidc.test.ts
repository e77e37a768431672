import { randomBytes } from 'node:crypto';
import { browseUntilLeaving, TestOidcIdp, type OidcPerson } from '../../../support/oidc-idp';
import { addMember, makeTeam, roleIn } from '../../../support/sso-teams';
import { registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';

const SUCCESS_URL = 'https://app.example.test/signed-in';

describe('core API: OIDC single sign-on against a local identity provider (oidc-provider, openid-client)', () => {
  let stack: TestStack;
  let idp: TestOidcIdp;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let team: { id: string; slug: string };
  beforeAll(async () => {
    stack = await startCoreApi({ env: { OAUTH_SUCCESS_URL: SUCCESS_URL, SSO_ALLOW_HTTP: 'on', SSO_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    idp = await TestOidcIdp.start(`${stack.client.baseUrl}/api/sso/oidc/callback`);
    owner = await registerUser(stack.client);
    team = await makeTeam(stack, owner.user.id);
    const res = await stack.client.put(
      `/api/sso/${team.slug}/config`,
      {
        protocol: 'oidc',
        oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: 'openid email profile groups' },
        allowedDomains: ['acme.test'],
        attributeMapping: { roles: { 'platform-admins': 'admin' } },
        defaultRole: 'viewer',
      },
      { token: owner.access_token },
    );
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await stack.close();
    await idp.close();
  });

  const person = (overrides: Partial<OidcPerson> = {}): OidcPerson => {
    const id = randomBytes(4).toString('hex');
    return { sub: `okta-${id}`, email: `p-${id}@acme.test`, name: `Person ${id}`, ...overrides };
  };

  /** The whole browser round trip: the platform, the identity provider's pages, and back to the callback. */
  async function signIn(who: OidcPerson) {
    idp.signInAs(who);
    const start = await fetch(`${stack.client.baseUrl}/api/sso/${team.slug}/login`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorize = start.headers.get('location')!;
    expect(authorize.startsWith(idp.issuer)).toBe(true);
    expect(new URL(authorize).searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await browseUntilLeaving(authorize, new URL(idp.issuer).host);
    expect(callback.startsWith(`${stack.client.baseUrl}/api/sso/oidc/callback?`)).toBe(true);
    return fetch(callback, { redirect: 'manual' });
  }

  async function sessionFrom(res: Response) {
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(SUCCESS_URL);
    const session = await stack.client.post('/api/auth/oauth/exchange', { code: location.searchParams.get('code') });
    expect(session.status).toBe(200);
    return session.body as { user: { id: string; email: string; displayName: string }; access_token: string };
  }

  it('provisions the account and the team membership on first sign-in, with the default role', async () => {
    const who = person();
    const session = await sessionFrom(await signIn(who));
    expect(session.user).toMatchObject({ email: who.email, displayName: who.name });
    expect(await roleIn(stack, team.id, session.user.id)).toBe('viewer');
    const again = await sessionFrom(await signIn(who));
    expect(again.user.id).toBe(session.user.id);
    const ids = await stack.client.get('/api/users/me/identities', { token: session.access_token });
    expect(ids.body.identities).toEqual([expect.objectContaining({ provider: 'oidc', email: who.email })]);
  });

  it('maps groups to a team role', async () => {
    const session = await sessionFrom(await signIn(person({ groups: ['everyone', 'platform-admins'] })));
    expect(await roleIn(stack, team.id, session.user.id)).toBe('admin');
  });

  it('refuses an e-mail outside the allowed domains', async () => {
    const res = await signIn(person({ email: `x-${Date.now()}@gmail.example` }));
    expect(res.status).toBe(403);
  });

  it('refuses the same callback twice (the state is single-use)', async () => {
    idp.signInAs(person());
    const start = await fetch(`${stack.client.baseUrl}/api/sso/${team.slug}/login`, { redirect: 'manual' });
    const callback = await browseUntilLeaving(start.headers.get('location')!, new URL(idp.issuer).host);
    await sessionFrom(await fetch(callback, { redirect: 'manual' }));
    expect((await fetch(callback, { redirect: 'manual' })).status).toBe(400);
  });

  it('enforcement: a member cannot use a password; SSO still works', async () => {
    const member = await registerUser(stack.client, { email: `m-${Date.now()}@acme.test` });
    await addMember(stack, team.id, member.user.id, 'member');
    expect((await stack.client.put(`/api/sso/${team.slug}/config`, { protocol: 'oidc', enforced: true }, { token: owner.access_token })).status).toBe(200);
    try {
      const login = await stack.client.post('/api/auth/login', { email: member.email, password: member.password });
      expect(login.status).toBe(403);
      expect(login.body.message).toContain(`requires single sign-on: choose to sign in with your team's SSO and enter "${team.slug}"`);
      const session = await sessionFrom(await signIn(person({ email: member.email })));
      expect(session.user.id).toBe(member.user.id);
      expect(await roleIn(stack, team.id, member.user.id)).toBe('member');
    } finally {
      await stack.client.put(`/api/sso/${team.slug}/config`, { protocol: 'oidc', enforced: false }, { token: owner.access_token });
    }
  });

  it('keeps the client secret sealed: never in a response, not in the clear in the database', async () => {
    const res = await stack.client.get(`/api/sso/${team.slug}/config`, { token: owner.access_token });
    expect(res.body.oidc).toEqual({ issuer: idp.issuer, clientId: idp.clientId, scopes: 'openid email profile groups', clientSecretSet: true });
    expect(res.text).not.toContain(idp.clientSecret);
    const rows = (await stack.infra.dataSource.query(`SELECT oidc_client_secret_sealed AS s FROM sso_configurations WHERE team_id = $1`, [team.id])) as { s: string }[];
    expect(rows[0]!.s).not.toContain(idp.clientSecret);
  });

  it('refuses an issuer in a private network unless allowed', async () => {
    const strict = await startCoreApi({ env: { SSO_ALLOW_HTTP: 'on' } });
    try {
      const boss = await registerUser(strict.client);
      const t = await makeTeam(strict, boss.user.id);
      const put = await strict.client.put(
        `/api/sso/${t.slug}/config`,
        { protocol: 'oidc', oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } },
        { token: boss.access_token },
      );
      expect(put.status).toBe(200);
      const start = await fetch(`${strict.client.baseUrl}/api/sso/${t.slug}/login`, { redirect: 'manual' });
      expect(start.status).toBe(502);
    } finally {
      await strict.close();
    }
  });
});
