import { TestSamlIdp } from '../../../support/saml-idp';
import { addMember, makeTeam } from '../../../support/sso-teams';
import { registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';

describe('core API: a team SSO connection, managed by its Owner and Admins', () => {
  let stack: TestStack;
  let idp: TestSamlIdp;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let team: { id: string; slug: string };
  beforeAll(async () => {
    idp = new TestSamlIdp();
    stack = await startCoreApi();
    owner = await registerUser(stack.client);
    team = await makeTeam(stack, owner.user.id);
  });
  afterAll(() => stack.close());

  const path = () => `/api/sso/${team.slug}/config`;
  const oidc = { protocol: 'oidc', oidc: { issuer: 'https://acme.okta.example/oauth2/default', clientId: 'client-1', clientSecret: 'top-secret-value-1' } };

  it('creates, reads, replaces and deletes; the secret is kept when left out and never shown', async () => {
    const token = owner.access_token;
    expect((await stack.client.get(path(), { token })).status).toBe(404);
    const created = await stack.client.put(path(), oidc, { token });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      teamId: team.id,
      protocol: 'oidc',
      enabled: true,
      enforced: false,
      defaultRole: 'member',
      oidc: { issuer: 'https://acme.okta.example/oauth2/default', clientId: 'client-1', scopes: 'openid email profile', clientSecretSet: true },
      saml: null,
      attributeMapping: { email: 'email', displayName: 'name', groups: 'groups', roles: {} },
      endpoints: { login: `${stack.client.baseUrl}/api/sso/${team.slug}/login`, oidcRedirectUri: `${stack.client.baseUrl}/api/sso/oidc/callback` },
    });
    expect(created.text).not.toContain('top-secret-value-1');
    const updated = await stack.client.put(path(), { protocol: 'oidc', oidc: { scopes: 'email groups' }, allowedDomains: ['Acme.COM', '@acme.org'] }, { token });
    expect(updated.status).toBe(200);
    expect(updated.body.id).toBe(created.body.id);
    expect(updated.body.oidc).toMatchObject({ clientId: 'client-1', scopes: 'openid email groups' });
    expect(updated.body.allowedDomains).toEqual(['acme.com', 'acme.org']);
    const saml = await stack.client.put(path(), { protocol: 'saml', saml: { metadataXml: idp.metadata() } }, { token });
    expect(saml.body).toMatchObject({ protocol: 'saml', oidc: null, saml: { entityId: idp.entityId, ssoUrl: idp.ssoUrl } });
    expect(saml.body.saml.certificate).toContain('BEGIN CERTIFICATE');
    expect((await stack.client.delete(path(), { token })).status).toBe(204);
    expect((await stack.client.delete(path(), { token })).status).toBe(404);
  });

  it('lets an Admin manage it; a Member gets 403, a stranger 404 like a team that does not exist', async () => {
    const admin = await registerUser(stack.client);
    const member = await registerUser(stack.client);
    const stranger = await registerUser(stack.client);
    await addMember(stack, team.id, admin.user.id, 'admin');
    await addMember(stack, team.id, member.user.id, 'member');
    expect((await stack.client.put(path(), oidc, { token: admin.access_token })).status).toBe(200);
    expect((await stack.client.get(path(), { token: member.access_token })).status).toBe(403);
    expect((await stack.client.put(path(), oidc, { token: member.access_token })).status).toBe(403);
    expect((await stack.client.delete(path(), { token: member.access_token })).status).toBe(403);
    expect((await stack.client.get(path(), { token: stranger.access_token })).status).toBe(404);
    expect((await stack.client.get('/api/sso/no-such-team/config', { token: owner.access_token })).status).toBe(404);
    expect((await stack.client.get(path())).status).toBe(401);
  });

  it('refuses bad settings with a 400 naming the field, changing nothing', async () => {
    const token = owner.access_token;
    const before = (await stack.client.put(path(), oidc, { token })).body;
    const cases: Array<[unknown, string]> = [
      [{}, 'protocol'],
      [{ protocol: 'ldap' }, 'protocol'],
      [{ protocol: 'oidc', oidc: { issuer: 'http://acme.example', clientId: 'c', clientSecret: 's' } }, 'oidc.issuer'],
      [{ protocol: 'oidc', oidc: { issuer: 'not a url', clientId: 'c', clientSecret: 's' } }, 'oidc.issuer'],
      [{ protocol: 'saml', saml: { entityId: 'x', ssoUrl: 'https://idp.example/sso', certificate: 'not a certificate' } }, 'saml.certificate'],
      [{ protocol: 'saml', saml: { metadataXml: '<!DOCTYPE x><x/>' } }, 'saml.metadataXml'],
      [{ protocol: 'saml', saml: { metadataXml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' } }, 'saml.metadataXml'],
      [{ protocol: 'oidc', allowedDomains: ['not a domain'] }, 'allowedDomains[0]'],
      [{ protocol: 'oidc', defaultRole: 'owner' }, 'defaultRole'],
      [{ protocol: 'oidc', attributeMapping: { roles: { admins: 'owner' } } }, 'attributeMapping.roles'],
      [{ protocol: 'oidc', enforced: 'yes' }, 'enforced'],
    ];
    for (const [body, field] of cases) {
      const res = await stack.client.put(path(), body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(field);
    }
    const fresh = await registerUser(stack.client);
    const other = await makeTeam(stack, fresh.user.id);
    const missingSecret = await stack.client.put(`/api/sso/${other.slug}/config`, { protocol: 'oidc', oidc: { issuer: 'https://i.example', clientId: 'c' } }, { token: fresh.access_token });
    expect(missingSecret.status).toBe(400);
    expect((await stack.client.get(path(), { token })).body).toEqual(before);
  });

  it('answers a mapped attribute of the wrong type (a number, 1e309, a list) with a 400 naming it, never a 500', async () => {
    const token = owner.access_token;
    const before = (await stack.client.put(path(), oidc, { token })).body;
    // Raw JSON: `-0` and `1e309` (Infinity once parsed) do not survive JSON.stringify.
    for (const field of ['displayName', 'email', 'groups']) {
      for (const value of ['-0', '-1', '1e309', '0', 'true', '[]', '{"a":1}']) {
        const raw = `{"protocol":"oidc","attributeMapping":{"${field}":${value}}}`;
        const res = await fetch(stack.client.baseUrl + path(), { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: raw });
        const body = await res.json();
        expect({ raw, status: res.status, error: body.error }).toEqual({ raw, status: 400, error: 'Bad Request' });
        expect({ raw, paths: body.details.map((d: { path: string }) => d.path) }).toEqual({ raw, paths: [`attributeMapping.${field}`] });
        expect(body.message).toContain(`attributeMapping.${field}`);
      }
    }
    expect((await stack.client.get(path(), { token })).body).toEqual(before);
  });

  it('has no sign-in for a team without an enabled connection', async () => {
    const token = owner.access_token;
    await stack.client.put(path(), { ...oidc, enabled: false }, { token });
    expect((await fetch(`${stack.client.baseUrl}/api/sso/${team.slug}/login`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${stack.client.baseUrl}/api/sso/nobody-here/login`, { redirect: 'manual' })).status).toBe(404);
  });
});
