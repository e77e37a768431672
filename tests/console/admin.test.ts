import { describeInBrowser } from '../browser/support/browser';
import { ADMIN_EMAIL, registerUser } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** Admin in Chromium: users (search, role, plan, disable, enable) and system health; hidden from and refused to others. */
describeInBrowser('console: admin', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;
  let admin: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    world = await startConsoleStack();
    admin = await registerUser(world.stack.client, { email: ADMIN_EMAIL });
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('finds an account, changes its role and plan, disables and enables it; shows the system health', async () => {
    const { page } = tab;
    const { client } = world.stack;
    const name = xssPayload('admin-name');
    const target = await registerUser(client, { displayName: name });
    await signIn(page, world.url, admin);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    const table = page.getByRole('table', { name: 'Users' });
    await table.waitFor();
    // Your own account: the actions the API would refuse (409) are disabled, with the reason.
    const own = table.getByRole('row', { name: new RegExp(ADMIN_EMAIL) });
    expect(await own.getByRole('button', { name: `Disable ${ADMIN_EMAIL}` }).isDisabled()).toBe(true);
    expect(await own.getByLabel(`Role of ${ADMIN_EMAIL}`).isDisabled()).toBe(true);

    await page.getByLabel('Search e-mail or name').fill(target.email.split('@')[0]!);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–1 of 1').waitFor();
    const row = table.getByRole('row', { name: new RegExp(target.email) });
    expect(await row.getByRole('cell', { name }).count()).toBe(1);

    await row.getByLabel(`Role of ${target.email}`).selectOption('developer');
    await page.getByRole('status').filter({ hasText: `${target.email} updated.` }).waitFor();
    await row.getByLabel(`Plan of ${target.email}`).selectOption('pro');
    await row.getByRole('cell', { name: /Pro/ }).waitFor();
    const usage = await client.get('/api/billing/usage', { token: target.access_token });
    expect(usage.body.plan).toBe('pro');

    await row.getByRole('button', { name: `Disable ${target.email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('cell', { name: 'Disabled', exact: true }).waitFor();
    expect((await client.post('/api/auth/login', { email: target.email, password: target.password })).status).toBeGreaterThanOrEqual(400);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-users');
    await row.getByRole('button', { name: `Enable ${target.email}` }).click();
    await row.getByRole('cell', { name: 'Active', exact: true }).waitFor();
    const listed = await client.get(`/api/admin/users?search=${encodeURIComponent(target.email)}`, { token: admin.access_token });
    expect(listed.body[0]).toMatchObject({ storedRole: 'developer', plan: 'pro', disabled: false });

    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'System health' }).click();
    const health = page.getByRole('table', { name: 'System health' });
    await health.getByRole('row', { name: /Database/ }).getByText('Up').waitFor();
    await page.getByText(/^Checked at /).waitFor();
    const checks = tab.requestUrls.filter((u) => u.endsWith('/api/system-health')).length;
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.waitForResponse((r) => r.url().endsWith('/api/system-health'));
    expect(tab.requestUrls.filter((u) => u.endsWith('/api/system-health')).length).toBeGreaterThan(checks);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-health');
  });

  it('is hidden from other accounts, which the API refuses (403) when they open it', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Applications' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await tab.goto('/admin');
    await page.getByRole('alert').getByText('Your role cannot do this.').waitFor();
    await page.getByRole('link', { name: 'System health' }).click();
    await page.getByRole('alert').getByText('Your role cannot do this.').waitFor();
  });

  it('shows the error state of a failed health check with a retry', async () => {
    const { page } = tab;
    await signIn(page, world.url, admin);
    await page.route('**/api/system-health', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'Health checks are resting' }) }));
    await tab.goto('/admin/health');
    await page.getByRole('alert').getByText('Health checks are resting').waitFor({ timeout: 20_000 });
    await page.unroute('**/api/system-health');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('table', { name: 'System health' }).waitFor();
  });
});
