import { makeSigningKey, TestSamlIdp, type AuthnRequestSeen } from '../../../support/saml-idp';
import { addMember, makeTeam, roleIn } from '../../../support/sso-teams';
import { registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';

const SUCCESS_URL = 'https://app.example.test/signed-in';

describe('core API: SAML single sign-on', () => {
  let stack: TestStack;
  let idp: TestSamlIdp;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let team: { id: string; slug: string };
  beforeAll(async () => {
    idp = new TestSamlIdp();
    stack = await startCoreApi({ env: { OAUTH_SUCCESS_URL: SUCCESS_URL } });
    owner = await registerUser(stack.client);
    team = await makeTeam(stack, owner.user.id);
    const res = await stack.client.put(
      `/api/sso/${team.slug}/config`,
      {
        protocol: 'saml',
        saml: { metadataXml: idp.metadata() },
        allowedDomains: ['acme.test'],
        attributeMapping: { email: 'mail', displayName: 'cn', groups: 'memberOf', roles: { 'acme-admins': 'admin', 'acme-readers': 'viewer' } },
      },
      { token: owner.access_token },
    );
    expect(res.status).toBe(200);
  });
  afterAll(() => stack.close());

  const base = () => stack.client.baseUrl;

  /** Starts a sign-in at the platform: the AuthnRequest the IdP receives. */
  async function begin(): Promise<AuthnRequestSeen> {
    const res = await fetch(`${base()}/api/sso/${team.slug}/login`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    return idp.readRequest(location);
  }

  const post = (xml: string, relayState: string, path = '/api/sso/saml/callback') =>
    fetch(`${base()}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: relayState }).toString(),
    });

  async function sessionFrom(res: Response) {
    expect(res.status).toBe(302);
    const code = new URL(res.headers.get('location')!).searchParams.get('code');
    const session = await stack.client.post('/api/auth/oauth/exchange', { code });
    expect(session.status).toBe(200);
    return session.body as { user: { id: string; email: string; displayName: string }; access_token: string };
  }

  const person = (request: AuthnRequestSeen, email: string, extra: Record<string, string | string[]> = {}) =>
    idp.assertion({ request, nameId: email, attributes: { mail: email, cn: 'Ada Acme', ...extra } });

  async function refusal(res: Response, status: number, reason?: RegExp) {
    expect(res.status).toBe(status);
    const body = (await res.json()) as { message: string; statusCode: number };
    expect(body.statusCode).toBe(status);
    if (reason) expect(body.message).toMatch(reason);
  }

  it('shows the addresses to register at the identity provider, read from its metadata', async () => {
    const res = await stack.client.get(`/api/sso/${team.slug}/config`, { token: owner.access_token });
    expect(res.body).toMatchObject({
      protocol: 'saml',
      saml: { entityId: idp.entityId, ssoUrl: idp.ssoUrl },
      endpoints: { samlAcsUrl: `${base()}/api/sso/saml/callback`, samlEntityId: `${base()}/api/sso/saml/metadata` },
    });
  });

  it('publishes the service provider metadata with the entity id and ACS URL', async () => {
    const res = await fetch(`${base()}/api/sso/saml/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${base()}/api/sso/saml/metadata"`);
    expect(xml).toContain(`Location="${base()}/api/sso/saml/callback"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
  });

  it('signs in with a good response: provisions the account and the membership with the mapped role', async () => {
    const request = await begin();
    expect(request.acsUrl).toBe(`${base()}/api/sso/saml/callback`);
    const email = `ada-${Date.now()}@acme.test`;
    const res = await post(idp.response(request, person(request, email, { memberOf: ['acme-engineers', 'acme-admins'] })), request.relayState);
    const session = await sessionFrom(res);
    expect(session.user).toMatchObject({ email, displayName: 'Ada Acme' });
    expect(await roleIn(stack, team.id, session.user.id)).toBe('admin');
    const ids = await stack.client.get('/api/users/me/identities', { token: session.access_token });
    expect(ids.body).toMatchObject({ hasPassword: false, identities: [{ provider: 'saml', email }] });

    // The next sign-in finds the same account; the mapped role follows the IdP.
    // An identity provider registered with the short callback address sends its responses there.
    const again = await begin();
    const short = { ...again, acsUrl: `${base()}/sso/saml/callback` };
    const second = await sessionFrom(await post(idp.response(short, person(short, email, { memberOf: 'acme-readers' })), again.relayState, '/sso/saml/callback'));
    expect(second.user.id).toBe(session.user.id);
    expect(await roleIn(stack, team.id, session.user.id)).toBe('viewer');
  });

  it('refuses a response signed with another key', async () => {
    const request = await begin();
    const forged = idp.assertion({ request, nameId: 'eve@acme.test', attributes: { mail: 'eve@acme.test' }, signingKey: makeSigningKey('Eve') });
    await refusal(await post(idp.response(request, forged), request.relayState), 401, /invalid signature/);
  });

  it('refuses an assertion altered after signing', async () => {
    const request = await begin();
    const tampered = person(request, 'bob@acme.test').replace('bob@acme.test</saml:NameID>', 'boss@acme.test</saml:NameID>');
    await refusal(await post(idp.response(request, tampered), request.relayState), 401, /invalid signature/);
  });

  it('refuses signature wrapping: a second, unsigned assertion beside or around the signed one', async () => {
    const request = await begin();
    const signed = person(request, 'mallory@acme.test');
    const evil = `<saml:Assertion ID="_evil" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${idp.entityId}</saml:Issuer><saml:Subject><saml:NameID>ceo@acme.test</saml:NameID></saml:Subject></saml:Assertion>`;
    await refusal(await post(idp.response(request, evil + signed), request.relayState), 401, /more than one assertion/);
    const request2 = await begin();
    const signed2 = person(request2, 'mallory@acme.test');
    const wrapped = `<samlp:Extensions>${signed2}</samlp:Extensions>${evil}`;
    await refusal(await post(idp.response(request2, wrapped), request2.relayState), 401, /more than one assertion/);
  });

  it('refuses an assertion for another audience', async () => {
    const request = await begin();
    const other = idp.assertion({ request, nameId: 'a@acme.test', attributes: { mail: 'a@acme.test' }, audience: 'https://other-sp.example.test' });
    await refusal(await post(idp.response(request, other), request.relayState), 401, /wrong audience/);
  });

  it('refuses an assertion past its NotOnOrAfter', async () => {
    const request = await begin();
    const stale = idp.assertion({ request, nameId: 'a@acme.test', attributes: { mail: 'a@acme.test' }, notOnOrAfter: new Date(Date.now() - 10 * 60_000) });
    await refusal(await post(idp.response(request, stale), request.relayState), 401, /expired/);
  });

  it('refuses an assertion for another recipient', async () => {
    const request = await begin();
    const elsewhere = idp.assertion({ request, nameId: 'a@acme.test', attributes: { mail: 'a@acme.test' }, recipient: 'https://evil.example.test/acs' });
    await refusal(await post(idp.response(request, elsewhere), request.relayState), 401, /wrong recipient/);
    const request2 = await begin();
    await refusal(await post(idp.response(request2, person(request2, 'a@acme.test'), { destination: 'https://evil.example.test/acs' }), request2.relayState), 401, /wrong recipient/);
  });

  it('refuses a replayed response, and one answering another sign-in', async () => {
    const request = await begin();
    const xml = idp.response(request, person(request, `replay-${Date.now()}@acme.test`));
    await sessionFrom(await post(xml, request.relayState));
    await refusal(await post(xml, request.relayState), 400, /unknown, expired or already used/);
    const fresh = await begin();
    await refusal(await post(xml, fresh.relayState), 401, /not a response to this sign-in/);
  });

  it('refuses XML with a DOCTYPE before parsing it', async () => {
    const request = await begin();
    const prolog = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>';
    await refusal(await post(idp.response(request, person(request, 'a@acme.test'), { prolog }), request.relayState), 400, /DOCTYPE/);
  });

  it('refuses e-mail domains outside the allowed ones', async () => {
    const request = await begin();
    await refusal(await post(idp.response(request, person(request, 'someone@elsewhere.test')), request.relayState), 403, /elsewhere\.test/);
  });

  it('links an existing member by e-mail, but never a non-member', async () => {
    const member = await registerUser(stack.client, { email: `member-${Date.now()}@acme.test` });
    await addMember(stack, team.id, member.user.id, 'member');
    const request = await begin();
    const session = await sessionFrom(await post(idp.response(request, person(request, member.email)), request.relayState));
    expect(session.user.id).toBe(member.user.id);

    const stranger = await registerUser(stack.client, { email: `stranger-${Date.now()}@acme.test` });
    const request2 = await begin();
    await refusal(await post(idp.response(request2, person(request2, stranger.email)), request2.relayState), 409, /not a member/);
    expect(await roleIn(stack, team.id, stranger.user.id)).toBeNull();
  });

  it('enforced: members cannot sign in with a password, and are told where to sign in', async () => {
    const member = await registerUser(stack.client, { email: `enforced-${Date.now()}@acme.test` });
    await addMember(stack, team.id, member.user.id, 'member');
    expect((await stack.client.put(`/api/sso/${team.slug}/config`, { protocol: 'saml', enforced: true }, { token: owner.access_token })).status).toBe(200);
    try {
      const login = await stack.client.post('/api/auth/login', { email: member.email, password: member.password });
      expect(login.status).toBe(403);
      expect(login.body.message).toContain(`requires single sign-on: choose to sign in with your team's SSO and enter "${team.slug}"`);
      // A wrong password still says nothing about the team.
      expect((await stack.client.post('/api/auth/login', { email: member.email, password: 'wrong password!' })).status).toBe(401);
      const request = await begin();
      await sessionFrom(await post(idp.response(request, person(request, member.email)), request.relayState));
    } finally {
      await stack.client.put(`/api/sso/${team.slug}/config`, { protocol: 'saml', enforced: false }, { token: owner.access_token });
    }
    expect((await stack.client.post('/api/auth/login', { email: member.email, password: member.password })).status).toBe(200);
  });

  it('refuses a callback without RelayState or SAMLResponse', async () => {
    const res = await fetch(`${base()}/api/sso/saml/callback`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'SAMLResponse=abc' });
    expect(res.status).toBe(400);
    expect((await stack.client.post('/api/sso/saml/callback', {})).status).toBe(400);
  });
});
