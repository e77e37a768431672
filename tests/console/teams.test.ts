import { describeInBrowser } from '../browser/support/browser';
import { outbox } from '../e2e/teams/team-support';
import { makeSigningKey } from '../support/saml-idp';
import { registerUser } from '../support/test-stack';
import { waitFor } from '../support/wait-for';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/**
 * Teams in Chromium: the personal/team switcher scoping a list, a team created, an invitation sent, resent and
 * accepted from the e-mail's link, a Viewer's disabled actions (and the API's 403 when forced), a role change,
 * the ownership transferred, and the SSO connection with the API's refusal on its field.
 */
describeInBrowser('console: teams and SSO', () => {
  let world: ConsoleStack;
  const tabs: ConsolePage[] = [];

  beforeAll(async () => {
    world = await startConsoleStack();
  });
  afterAll(() => world?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await closeCheckedTab(tab);
  });

  async function open(): Promise<ConsolePage> {
    const tab = await world.open();
    tabs.push(tab);
    return tab;
  }

  it('scopes lists by team, invites and accepts from the link, shows a Viewer what it cannot do, and configures SSO', async () => {
    const client = world.stack.client;
    const owner = await registerUser(client, { displayName: 'Olive Owner' });
    const viewer = await registerUser(client, { displayName: 'Vic Viewer' });
    await world.stack.setPlan(owner.user.id, 'pro');
    const personal = await client.post('/api/applications', { name: 'Solo Notes' }, { token: owner.access_token });
    const shared = await client.post('/api/applications', { name: 'Crew Desk' }, { token: owner.access_token });
    expect([personal.status, shared.status]).toEqual([201, 201]);

    const { page } = await open();
    const tab = tabs[0]!;
    await signIn(page, world.url, owner);
    await tab.goto('/teams');
    await page.getByRole('heading', { name: 'No teams yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create a team' }).click();
    const create = page.getByRole('dialog', { name: 'Create a team' });
    await create.getByLabel('Name').fill(`Harbour Crew`);
    await create.getByLabel('Description').fill(xssPayload('team'));
    await create.getByRole('button', { name: 'Create a team' }).click();
    await page.getByRole('heading', { name: 'Harbour Crew', level: 1 }).waitFor();
    const teamId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(await client.post(`/api/applications/${shared.body.id}/transfer`, { teamId }, { token: owner.access_token })).toMatchObject({ status: 200 });

    // The switcher: every list follows it (?teamId= on the request), and back.
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('row', { name: /Solo Notes/ }).waitFor();
    await page.getByRole('row', { name: /Crew Desk/ }).waitFor();
    await page.getByLabel('Context').selectOption({ label: 'Team: Harbour Crew' });
    await page.getByRole('row', { name: /Solo Notes/ }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Crew Desk/ }).waitFor();
    expect(tab.requestUrls.some((u) => u.includes(`/api/applications?`) && u.includes(`teamId=${teamId}`))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'teams-switcher');
    // A new application made while the team is chosen lands in that team, created there by the one request (no move).
    await page.getByRole('button', { name: 'New application' }).click();
    const newApp = page.getByRole('dialog', { name: 'Create an application' });
    await newApp.getByText('Created in the team “Harbour Crew”', { exact: false }).waitFor();
    await newApp.getByLabel('Name').fill('Crew Bot');
    await newApp.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('row', { name: /Crew Bot/ }).waitFor();
    const made = (await client.get('/api/applications?limit=100', { token: owner.access_token })).body as Array<{ name: string; teamId: string | null }>;
    expect(made.find((a) => a.name === 'Crew Bot')?.teamId).toBe(teamId);
    expect(tab.requestUrls.filter((u) => /\/api\/applications\/[^/]+\/transfer/.test(u))).toEqual([]);
    await page.getByLabel('Context').selectOption({ label: 'Personal' });
    await page.getByRole('row', { name: /Solo Notes/ }).waitFor();
    expect(await page.getByRole('row', { name: /Crew Desk/ }).count()).toBe(0);
    await page.getByLabel('Context').selectOption({ label: 'Personal and teams' });
    await page.getByRole('row', { name: /Crew Desk/ }).waitFor();

    // Invite, resend (the first link stops working), and the list of invitations.
    await page.getByRole('link', { name: 'Teams' }).click();
    await page.getByRole('row', { name: /Harbour Crew/ }).getByText('Owner').waitFor();
    await screenshot(page, 'teams-list');
    await page.getByRole('link', { name: 'Harbour Crew' }).click();
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('E-mail').fill(viewer.email);
    await invitations.getByLabel('Role').selectOption('viewer');
    await invitations.getByRole('button', { name: 'Invite' }).click();
    await invitations.getByText(`Invitation sent to ${viewer.email}`).waitFor();
    await invitations.getByRole('row', { name: new RegExp(viewer.email) }).getByText('Pending').waitFor();
    const firstLink = invitationLink(viewer.email);
    await invitations.getByRole('button', { name: `Resend the invitation to ${viewer.email}` }).click();
    await invitations.getByText(/The invitation was sent again/).waitFor();
    const link = invitationLink(viewer.email);
    expect(link).not.toBe(firstLink);
    expect(tab.requestUrls.some((u) => /\/invitations\/[0-9a-f-]{36}\/resend$/.test(u))).toBe(true);
    expect(await invitations.getByRole('row', { name: new RegExp(viewer.email) }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'teams-team');

    // The invited person opens the link signed out: sign-in, then back to the page, the token out of the address.
    const guest = await open();
    await guest.page.goto(new URL(link, world.url).href);
    await guest.page.getByLabel('E-mail').fill(viewer.email);
    await guest.page.getByLabel('Password').fill(viewer.password);
    await guest.page.getByRole('button', { name: 'Sign in' }).click();
    await guest.page.getByRole('heading', { name: 'Join a team' }).waitFor();
    await guest.page.waitForURL((u) => u.pathname === '/teams/accept' && !u.search.includes('token'));
    expect(await axeViolations(guest.page)).toEqual([]);
    await screenshot(guest.page, 'teams-accept');
    await guest.page.getByRole('button', { name: 'Join the team' }).click();
    await guest.page.getByText('You joined Harbour Crew.').waitFor();
    expect((await client.post('/api/teams/invitations/accept', { token: new URL(firstLink, world.url).searchParams.get('token') }, { token: viewer.access_token })).status).toBe(404);

    // The Viewer sees the team but every action its role cannot take is disabled, with the reason.
    await guest.page.getByRole('link', { name: 'Open the team' }).click();
    await guest.page.getByRole('heading', { name: 'Harbour Crew', level: 1 }).waitFor();
    await guest.page.getByText('Your role (Viewer) cannot invite').waitFor();
    expect(await guest.page.getByRole('region', { name: 'Invitations' }).getByRole('button', { name: 'Invite' }).isDisabled()).toBe(true);
    expect(await guest.page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    expect(await guest.page.getByRole('button', { name: 'Save key' }).isDisabled()).toBe(true);
    expect(await guest.page.getByLabel('Role of Olive Owner').isDisabled()).toBe(true);
    expect(await guest.page.getByRole('button', { name: 'Delete the team' }).isDisabled()).toBe(true);
    expect(await guest.page.getByRole('button', { name: 'Leave the team' }).isDisabled()).toBe(false);
    expect(await axeViolations(guest.page)).toEqual([]);
    await screenshot(guest.page, 'teams-viewer');
    // Forced past the console, the API refuses.
    const forced = await client.post(`/api/teams/${teamId}/invitations`, { email: 'someone@example.com' }, { token: viewer.access_token });
    expect(forced.status).toBe(403);
    expect((await client.put(`/api/teams/${teamId}`, { name: 'Taken over' }, { token: viewer.access_token })).status).toBe(403);
    // Nor may a Viewer create an application in the team: the form says why.
    await guest.page.getByLabel('Context').selectOption({ label: 'Team: Harbour Crew' });
    await guest.page.getByRole('link', { name: 'Applications' }).click();
    await guest.page.getByRole('button', { name: 'New application' }).click();
    const viewerNew = guest.page.getByRole('dialog', { name: 'Create an application' });
    await viewerNew.getByText('needs the Admin role there; yours is viewer', { exact: false }).waitFor();
    expect(await viewerNew.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await viewerNew.getByRole('button', { name: /close|cancel/i }).first().click();

    // The Owner re-roles the Viewer, then hands the ownership over and stays as an Admin.
    await page.reload();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByLabel('Role of Vic Viewer').selectOption('member');
    await waitFor(async () => (await client.get(`/api/teams/${teamId}`, { token: viewer.access_token })).body.role === 'member');
    await members.getByRole('button', { name: 'Make Vic Viewer the Owner' }).click();
    await page.getByRole('dialog', { name: 'Make Vic Viewer the Owner?' }).getByRole('button', { name: 'Transfer ownership' }).click();
    await page.getByText('Your role: Admin').waitFor();
    expect(await members.getByLabel('Role of Vic Viewer').isDisabled()).toBe(true);

    // SSO (an Admin): a SAML connection, the API's refusal on the certificate's field, then saved with its endpoints.
    await page.getByRole('link', { name: 'Configure single sign-on' }).click();
    await page.getByRole('heading', { name: 'Single sign-on: Harbour Crew' }).waitFor();
    await page.getByText('No connection yet').waitFor();
    // OIDC first: saved, then reloaded with its values and the client secret write-only.
    const oidcSecret = 'harbour-oidc-client-secret-7f3a';
    await page.getByLabel('OpenID Connect (OIDC)').check();
    await page.getByLabel('Issuer URL').fill('https://login.harbour.example');
    await page.getByLabel('Client ID').fill('harbour-console');
    await page.getByLabel('Client secret').fill(oidcSecret);
    await page.getByLabel('Scopes').fill('openid email groups');
    await page.getByRole('button', { name: 'Save the connection' }).click();
    await page.getByText('The connection is saved.').waitFor();
    await page.reload();
    await page.getByText('OIDC redirect URI', { exact: true }).waitFor();
    expect(await page.getByLabel('Issuer URL').inputValue()).toBe('https://login.harbour.example');
    expect(await page.getByLabel('Client ID').inputValue()).toBe('harbour-console');
    expect(await page.getByLabel('Scopes').inputValue()).toBe('openid email groups');
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    await page.getByText('A secret is saved; leave empty to keep it.').waitFor();
    expect(await page.content()).not.toContain(oidcSecret);
    // Then replaced by a SAML connection.
    await page.getByLabel('SAML 2.0').check();
    expect(await page.getByRole('link', { name: 'Download the service provider metadata' }).getAttribute('href')).toBe('/api/sso/saml/metadata');
    await page.getByLabel('IdP entity ID').fill('https://idp.example.com/metadata');
    await page.getByLabel('IdP SSO URL').fill('https://idp.example.com/sso');
    await page.getByLabel('IdP signing certificate (PEM)').fill('not a certificate');
    await page.getByRole('button', { name: 'Add a mapping' }).click();
    await page.getByLabel('Group value 1').fill('crew-admins');
    await page.getByLabel('Team role 1').selectOption('admin');
    await page.getByLabel('Allowed e-mail domains').fill('example.com');
    await page.getByRole('button', { name: 'Save the connection' }).click();
    await page.locator('.ap-field__error').getByText(/^Certificate /).waitFor();
    await page.getByLabel('IdP signing certificate (PEM)').fill(makeSigningKey('Harbour IdP').cert);
    await page.getByLabel(/^Enforced/).check();
    await page.getByRole('button', { name: 'Save the connection' }).click();
    await page.getByText('The connection is saved.').waitFor();
    await page.getByText('SAML assertion consumer service (HTTP-POST)', { exact: true }).waitFor();
    await page.getByText(/\/sso\/saml\/callback$/).waitFor();
    expect(tab.requestUrls.join(' ')).not.toContain(oidcSecret);
    const saved = await client.get(`/api/sso/${(await client.get(`/api/teams/${teamId}`, { token: owner.access_token })).body.slug}/config`, { token: owner.access_token });
    expect(saved.body).toMatchObject({ protocol: 'saml', enforced: true, allowedDomains: ['example.com'], attributeMapping: { roles: { 'crew-admins': 'admin' } } });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'teams-sso');
  });

  function invitationLink(email: string): string {
    const mail = outbox(world.stack)
      .filter((m) => m.to === email && m.subject.startsWith('You are invited'))
      .at(-1);
    const link = /\S*\/teams\/accept\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error(`no invitation link mailed to ${email}`);
    return link;
  }
});
