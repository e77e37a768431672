import { DOMAIN_TOKENS } from '../../apps/core-api/modules/custom-domains.tokens';
import { resolve } from '../../apps/shared/tokens';
import { describeInBrowser } from '../browser/support/browser';
import { LocalDns } from '../support/local-dns';
import { addMember, makeTeam } from '../support/sso-teams';
import { registerUser, userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

const TARGET = 'edge.platform.example';

/** Custom domains in Chromium against the local DNS server: add, the records to copy, a failed verification with its reason, verify, activate, settings, certificate, remove. */
describeInBrowser('console: custom domains', () => {
  let world: ConsoleStack;
  let dns: LocalDns;
  let tab: ConsolePage;

  beforeAll(async () => {
    dns = await LocalDns.start();
    world = await startConsoleStack({ env: { DNS_SERVERS: dns.address, CUSTOM_DOMAIN_TARGET: TARGET, RESERVED_DOMAINS: 'reserved.example' } });
  });
  afterAll(async () => {
    await world?.close();
    await dns?.close();
  });
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('adds a domain, shows the DNS records to copy, fails verification with the reason, verifies, activates, saves settings, shows the certificate expiry and removes it', async () => {
    const { page } = tab;
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.url });
    const owner = await userWithApplication(world.stack.client, { name: 'Harbour Help' });
    const api = (path: string) => world.stack.client.get(path, { token: owner.token });
    await signIn(page, world.url, owner);
    await tab.goto('/domains');
    await page.getByRole('heading', { name: 'No custom domains yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A reserved name: the API's refusal on the field.
    await page.getByLabel('Domain', { exact: true }).fill('reserved.example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.locator('.ap-field__error').filter({ hasText: /reserved/i }).waitFor();

    await page.getByLabel('Domain', { exact: true }).fill('Chat.Harbour.Example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('heading', { name: 'chat.harbour.example', level: 1 }).waitFor();
    const created = ((await api('/api/custom-domains')).body as { id: string; dnsRecords: { type: string; name: string; value: string }[] }[])[0]!;
    const txt = created.dnsRecords.find((r) => r.type === 'TXT')!;
    const records = page.getByRole('table');
    await records.getByRole('row', { name: /TXT/ }).getByText(txt.value).waitFor();
    await records.getByRole('row', { name: /CNAME/ }).getByText(TARGET).waitFor();
    await page.getByRole('button', { name: 'Copy TXT value' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txt.value);

    // Activation waits for verification, and says so.
    const activate = page.getByRole('button', { name: 'Activate' });
    expect(await activate.isDisabled()).toBe(true);
    await page.getByText('Verify the domain first: activation needs its DNS records in place.').waitFor();

    // No records yet: verification fails with the resolver's reason.
    await page.getByRole('button', { name: 'Verify DNS' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'Verification failed:' });
    await failure.waitFor();
    expect(await failure.textContent()).toContain('NXDOMAIN');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'domains-verify-failed');

    dns.zone[txt.name] = { txt: [txt.value] };
    dns.zone['chat.harbour.example'] = { cname: TARGET };
    await page.getByRole('button', { name: 'Verify DNS' }).click();
    await page.getByText('Verified', { exact: true }).waitFor();
    expect(await failure.count()).toBe(0);
    await activate.click();
    await page.getByText(/^Active since /).waitFor();
    expect((await api(`/api/custom-domains/${created.id}`)).body.status).toBe('active');

    // Settings: a forbidden header refused on its field, then saved.
    await page.getByLabel('Force HTTPS').check();
    const headers = page.getByLabel('Custom response headers');
    await headers.fill('Set-Cookie: a=b');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('.ap-field__error').filter({ hasText: /Set-Cookie/ }).waitFor();
    await headers.fill('X-Shop: harbour');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect((await api(`/api/custom-domains/${created.id}`)).body.settings).toEqual({ redirectWww: false, forceHttps: true, customHeaders: { 'X-Shop': 'harbour' } });

    // The certificate's expiry, as the daily check records it.
    await page.getByText('Not checked yet: certificates are checked daily once the domain is active.').waitFor();
    const domains = resolve(world.stack.core.container, DOMAIN_TOKENS.CustomDomainRepository);
    await domains.update(created.id, { sslExpiresAt: new Date(Date.now() + 40 * 86_400_000), sslCheckedAt: new Date(), sslError: null });
    await page.reload();
    await page.getByText(/Expires .* \(in 39 days\)/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'domains-detail');

    await page.getByRole('link', { name: 'All domains' }).click();
    const row = page.getByRole('row', { name: /chat\.harbour\.example/ });
    await row.getByText('Active').waitFor();
    await row.getByText(/^expires /).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'domains');

    await page.getByRole('link', { name: 'Open chat.harbour.example' }).click();
    await page.getByRole('button', { name: 'Remove domain' }).click();
    await page.getByRole('dialog', { name: 'Remove chat.harbour.example?' }).getByRole('button', { name: 'Remove domain' }).click();
    await page.getByRole('heading', { name: 'No custom domains yet' }).waitFor();
    expect((await api('/api/custom-domains')).body).toEqual([]);
  });

  it("shows a team Viewer why a domain cannot be added for the team's application, and the API refuses it (403)", async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Crew Desk' });
    const team = await makeTeam(world.stack, owner.user.id);
    expect((await world.stack.client.post(`/api/applications/${owner.app.id}/transfer`, { teamId: team.id }, { token: owner.token })).status).toBe(200);
    const viewer = await registerUser(world.stack.client);
    await addMember(world.stack, team.id, viewer.user.id, 'viewer');
    await signIn(page, world.url, viewer);
    await tab.goto('/domains');
    await page.getByLabel('Domain', { exact: true }).fill('crew.harbour.example');
    await page.getByText(/^Your role in Team .* is viewer: adding a domain for this application needs Admin or Owner\.$/).waitFor();
    expect(await page.getByRole('button', { name: 'Add domain' }).isDisabled()).toBe(true);
    const forced = await world.stack.client.post('/api/custom-domains', { domain: 'crew.harbour.example', applicationId: owner.app.id }, { token: viewer.access_token });
    expect(forced.status).toBe(403);
    expect(await axeViolations(page)).toEqual([]);
  });
});
