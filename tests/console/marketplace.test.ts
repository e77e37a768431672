import { resolve } from '../../apps/shared/tokens';
import { CheckMarketplaceUpdatesUseCase } from '../../core/marketplace/use-cases/updates';
import { describeInBrowser } from '../browser/support/browser';
import { pluginPackage } from '../support/marketplace-stack';
import { ADMIN_EMAIL, registerUser, userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/**
 * The Marketplace and its review in Chromium against the core API, the marketplace service and the Stripe fake:
 * an author submits a plugin ZIP, an administrator approves and features it, a user finds it, reviews it (as text),
 * installs it, buys a paid one through Checkout and upgrades; a rejected submission shows its reason; the
 * marketplace going down shows the error state.
 */
describeInBrowser('console: marketplace', () => {
  let world: ConsoleStack;
  const tabs: ConsolePage[] = [];
  const open = async () => {
    const tab = await world.open();
    tabs.push(tab);
    return tab;
  };

  beforeAll(async () => {
    world = await startConsoleStack({ marketplace: true, stripe: true });
  }, 120_000); // three services, a browser, and a console build when stale
  afterAll(() => world?.close());
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await closeCheckedTab(tab);
  });

  /** The administrator's token (ADMIN_EMAILS), registering it on first use. */
  const adminToken = async (): Promise<string> => {
    const login = await world.stack.client.post('/api/auth/login', { email: ADMIN_EMAIL, password: 'correct horse battery' });
    if (login.status === 200) return login.body.access_token as string;
    return (await registerUser(world.stack.client, { email: ADMIN_EMAIL })).access_token;
  };
  const zip = async (name: string, version: string) => ({ name: `${name}-${version}.zip`, mimeType: 'application/zip', buffer: Buffer.from(await pluginPackage({ name, version, displayName: name }), 'base64') });

  it('submit → admin approves and features → browse and search → detail → review written, edited, deleted → install → update and upgrade', async () => {
    const author = await registerUser(world.stack.client, { displayName: 'Ada Author' });
    await adminToken();
    const buyer = await userWithApplication(world.stack.client, { name: 'Gadget Shop' });

    // The author: an empty marketplace, then the submit form with the ZIP.
    const authorTab = await open();
    const a = authorTab.page;
    await signIn(a, world.url, author);
    expect(await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Marketplace review' }).count()).toBe(0);
    await authorTab.goto('/market');
    await a.getByRole('heading', { name: 'Nothing published yet' }).waitFor();
    await a.getByRole('link', { name: 'Submit an item' }).first().click();
    await a.getByRole('heading', { name: 'Submit to the marketplace' }).waitFor();
    await a.getByLabel('Plugin package (ZIP)').setInputFiles(await zip('word-counter', '1.0.0'));
    await a.getByLabel('Name', { exact: true }).fill('word-counter');
    await a.getByLabel('Version').fill('1.0.0');
    await a.getByLabel('Display name').fill('Word counter');
    await a.getByLabel('Description').fill(`Counts the words of every message. ${xssPayload('description')}`);
    await a.getByLabel('Author', { exact: true }).fill('Ada Author');
    await a.getByLabel('Homepage (https://…)').fill('https://example.com/word-counter');
    await a.getByLabel('Category').selectOption('productivity');
    expect(await axeViolations(a)).toEqual([]);
    await screenshot(a, 'marketplace-submit');
    // A manifest that does not name this version: the API's refusal on the package field, nothing lost.
    await a.getByLabel('Version').fill('1.0.1');
    await a.getByRole('button', { name: 'Submit for review' }).click();
    await a.locator('#mk-package-error').waitFor();
    expect(await a.getByLabel('Display name').inputValue()).toBe('Word counter');
    await a.getByLabel('Version').fill('1.0.0');
    await a.getByRole('button', { name: 'Submit for review' }).click();
    await a.getByRole('heading', { name: 'My submissions' }).waitFor();
    await a.getByRole('row', { name: /Word counter/ }).getByText('Pending review').waitFor();

    // The administrator: the area is in the navigation, the queue lists it, approve and feature.
    const adminTab = await open();
    const m = adminTab.page;
    await signIn(m, world.url, { email: ADMIN_EMAIL });
    await m.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Marketplace review' }).click();
    await m.getByText('1 plugin and 0 themes await review').waitFor();
    const queued = m.getByRole('region', { name: 'Plugins awaiting review' }).getByRole('row', { name: /Word counter/ });
    await queued.waitFor();
    expect(await queued.textContent()).toContain(xssPayload('description'));
    expect(await axeViolations(m)).toEqual([]);
    await screenshot(m, 'marketplace-admin-queue');
    await m.getByRole('button', { name: 'Approve Word counter' }).click();
    await m.getByText('Word counter is published.').waitFor();
    await m.getByText('0 plugins and 0 themes await review').waitFor();
    await m.getByRole('button', { name: 'Feature Word counter' }).click();
    await m.getByRole('button', { name: 'Stop featuring Word counter' }).waitFor();
    await a.reload();
    await a.getByRole('row', { name: /Word counter/ }).getByText('Approved').waitFor();

    // A non-admin forcing the admin area: the API's 403, no queue.
    await authorTab.goto('/marketplace-admin');
    await a.getByRole('alert').getByText('Your role cannot do this.').waitFor();
    expect(await a.getByRole('button', { name: /Approve/ }).count()).toBe(0);

    // The user: featured, search, category, then the item's page.
    const userTab = await open();
    const u = userTab.page;
    await signIn(u, world.url, buyer);
    await userTab.goto('/market');
    const featured = u.getByRole('list', { name: 'Featured' });
    await featured.getByRole('link', { name: 'Word counter' }).waitFor();
    expect(await axeViolations(u)).toEqual([]);
    await screenshot(u, 'marketplace-browse');
    await u.getByLabel('Search', { exact: true }).fill('nothing-like-this');
    await u.getByRole('button', { name: 'Search', exact: true }).click();
    await u.getByRole('heading', { name: 'Nothing matches' }).waitFor();
    await u.getByLabel('Search', { exact: true }).fill('words');
    await u.getByRole('button', { name: 'Search', exact: true }).click();
    await u.getByRole('heading', { name: '1 result' }).waitFor();
    await u.getByLabel('Category').selectOption('productivity');
    const results = u.getByRole('list', { name: 'Plugins' });
    await results.getByRole('link', { name: 'Word counter' }).click();

    await u.getByRole('heading', { name: 'Word counter', level: 1 }).waitFor();
    await u.getByRole('region', { name: 'Versions' }).getByRole('row', { name: /1\.0\.0/ }).waitFor();
    await u.getByRole('heading', { name: 'No reviews yet' }).waitFor();
    expect(await u.getByText(xssPayload('description'), { exact: false }).count()).toBe(1);
    expect(await u.getByRole('link', { name: 'https://example.com/word-counter' }).getAttribute('rel')).toBe('noopener noreferrer');

    // Review: write (hostile text stays text), edit, then delete.
    await u.getByLabel('Rating', { exact: true }).selectOption('4');
    await u.getByLabel('Review', { exact: true }).fill(`Handy. ${xssPayload('review')}`);
    await u.getByRole('button', { name: 'Publish review' }).click();
    const reviews = u.getByRole('list', { name: 'Reviews' });
    await reviews.getByText(`Handy. ${xssPayload('review')}`).waitFor();
    await u.getByText('4.0 of 5 (1 review)').first().waitFor();
    expect(await u.getByLabel('4 stars: 1').count()).toBe(1);
    await u.getByLabel('Rating', { exact: true }).selectOption('5');
    await u.getByLabel('Review', { exact: true }).fill('Even better after a week.');
    await u.getByRole('button', { name: 'Update review' }).click();
    await reviews.getByText('Even better after a week.').waitFor();
    await u.getByText('5.0 of 5 (1 review)').first().waitFor();

    // Install into the application: the newest compatible release.
    await u.getByRole('button', { name: 'Install plugin' }).click();
    await u.getByText('Installed in Gadget Shop (version 1.0.0).', { exact: false }).waitFor();
    expect(await axeViolations(u)).toEqual([]);
    await screenshot(u, 'marketplace-detail');
    await u.getByRole('button', { name: 'Install plugin' }).click();
    await u.getByRole('alert').filter({ hasText: /already|installed/i }).waitFor();
    const installed = await world.stack.client.get(`/api/applications/${buyer.app.id}/plugins`, { token: buyer.token });
    expect(installed.body).toHaveLength(1);

    await u.getByRole('button', { name: 'Delete your review' }).click();
    await u.getByRole('dialog', { name: 'Delete your review?' }).getByRole('button', { name: 'Delete your review' }).click();
    await u.getByRole('heading', { name: 'No reviews yet' }).waitFor();

    // A new version, found by the daily check: Updates lists it and upgrades.
    const id = new URL(u.url()).pathname.split('/').at(-1)!;
    const published = await world.stack.client.post(
      `/api/marketplace/plugins/${id}/versions`,
      { version: '1.1.0', changelog: 'Counts faster', package: await pluginPackage({ name: 'word-counter', version: '1.1.0' }) },
      { token: author.access_token },
    );
    expect(published.status).toBe(201);
    await resolve(world.stack.core.container, CheckMarketplaceUpdatesUseCase).checkAll();
    await userTab.goto('/market');
    await u.getByRole('link', { name: 'Updates (1)' }).click();
    const update = u.getByRole('row', { name: /Word counter/ });
    expect(await update.textContent()).toContain('Counts faster');
    expect(await axeViolations(u)).toEqual([]);
    await screenshot(u, 'marketplace-updates');
    await update.getByRole('button', { name: 'Upgrade Word counter' }).click();
    await u.getByText('Upgraded from 1.0.0 to 1.1.0.').waitFor();
    await u.getByRole('heading', { name: 'Everything is up to date' }).waitFor();
  });

  it('buys a paid plugin through Checkout: its license is issued when the payment completes', async () => {
    const author = await registerUser(world.stack.client);
    const submitted = await world.stack.client.post(
      '/api/marketplace/submit/plugin',
      { name: 'paid-helper', slug: 'paid-helper', version: '1.0.0', displayName: 'Paid helper', description: 'Helps, for a price', isPaid: true, price: 12.5, package: await pluginPackage({ name: 'paid-helper', version: '1.0.0' }) },
      { token: author.access_token },
    );
    expect(submitted.status).toBe(201);
    expect((await world.stack.client.post(`/api/marketplace/admin/plugins/${submitted.body.id}/approve`, {}, { token: await adminToken() })).status).toBe(200);

    const buyer = await userWithApplication(world.stack.client, { name: 'Shop' });
    const tab = await open();
    const { page } = tab;
    await signIn(page, world.url, buyer);
    await tab.goto(`/market/plugins/${submitted.body.id}`);
    await page.getByText('Paid plugin: $12.50. Activating it needs a license.').waitFor();
    // The payment page of the fake completes the session, calls the platform's webhook and returns to the platform.
    await page.getByRole('button', { name: 'Buy for $12.50' }).click();
    await page.waitForURL(`${world.url}/billing?license=success`);
    const session = [...world.stripe!.sessions.values()].find((x) => x.metadata.itemId === submitted.body.id)!;
    expect(session.line_items).toEqual([expect.objectContaining({ amount: 1250, currency: 'usd' })]);
    const licenses = await world.stack.client.get(`/api/marketplace/plugins/${submitted.body.id}/licenses`, { token: author.access_token });
    expect(licenses.body.map((l: { userId: string }) => l.userId)).toContain(buyer.user.id);
    await tab.goto(`/market/plugins/${submitted.body.id}`);
    await page.getByRole('heading', { name: 'Paid helper', level: 1 }).waitFor();

    // Paging: more published plugins than one page holds (12), newest first.
    for (let i = 1; i <= 12; i++) {
      const name = `filler-${i}`;
      const body = { name, slug: name, version: '1.0.0', displayName: `Filler ${i}`, package: await pluginPackage({ name, version: '1.0.0' }) };
      const filler = await world.stack.client.post('/api/marketplace/submit/plugin', body, { token: author.access_token });
      expect((await world.stack.client.post(`/api/marketplace/admin/plugins/${filler.body.id}/approve`, {}, { token: await adminToken() })).status).toBe(200);
    }
    await tab.goto('/market?sort=recent');
    const results = page.getByRole('list', { name: 'Plugins' });
    await results.getByRole('link', { name: 'Filler 12' }).waitFor();
    expect(await results.getByRole('listitem').count()).toBe(12);
    await page.getByText(/^Page 1 of 2$/).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(/^Page 2 of 2$/).waitFor();
    await results.getByRole('link', { name: 'Paid helper' }).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  });

  it('Your licenses: a buyer sees the licenses they hold, the plugin linked to its page, and someone holding none the empty state', async () => {
    const author = await registerUser(world.stack.client);
    const submitted = await world.stack.client.post(
      '/api/marketplace/submit/plugin',
      { name: 'licensed-helper', slug: 'licensed-helper', version: '1.0.0', displayName: 'Licensed helper', description: 'Paid', isPaid: true, price: 4, package: await pluginPackage({ name: 'licensed-helper', version: '1.0.0' }) },
      { token: author.access_token },
    );
    expect(submitted.status).toBe(201);
    const id = submitted.body.id as string;
    expect((await world.stack.client.post(`/api/marketplace/admin/plugins/${id}/approve`, {}, { token: await adminToken() })).status).toBe(200);
    const buyer = await userWithApplication(world.stack.client, { name: 'Licensed shop' });
    const issued = await world.stack.client.post(`/api/marketplace/plugins/${id}/licenses`, { userId: buyer.user.id }, { token: author.access_token });
    expect(issued.status).toBe(201);

    const tab = await open();
    const { page } = tab;
    await signIn(page, world.url, buyer);
    await tab.goto('/market');
    await page.getByRole('link', { name: 'Your licenses' }).click();
    await page.getByRole('heading', { name: 'Your licenses', level: 1 }).waitFor();
    const table = page.getByRole('table');
    const row = table.getByRole('row', { name: /Licensed helper/ });
    await row.waitFor();
    await row.getByRole('cell', { name: 'Active' }).waitFor();
    await row.getByRole('cell', { name: 'Never' }).waitFor();
    await row.getByRole('cell', { name: 'Not installed' }).waitFor();
    expect(await page.getByText(issued.body.key as string).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole('link', { name: 'Licensed helper' }).click();
    await page.waitForURL(`${world.url}/market/plugins/${id}`);
    await page.getByRole('heading', { name: 'Licensed helper', level: 1 }).waitFor();

    const nobody = await userWithApplication(world.stack.client, { name: 'No licenses' });
    const other = await open();
    await signIn(other.page, world.url, nobody);
    await other.goto('/market/licenses');
    await other.page.getByText('No licenses yet').waitFor();
    expect(await other.page.getByRole('link', { name: 'Licensed helper' }).count()).toBe(0);
    expect(await axeViolations(other.page)).toEqual([]);
  });

  it('shows a rejected submission with its reason, and the error state while the marketplace is down', async () => {
    const author = await registerUser(world.stack.client);
    await adminToken();
    const submitted = await world.stack.client.post(
      '/api/marketplace/submit/plugin',
      { name: 'sneaky', slug: 'sneaky', version: '1.0.0', displayName: 'Sneaky', package: await pluginPackage({ name: 'sneaky', version: '1.0.0' }) },
      { token: author.access_token },
    );
    expect(submitted.status).toBe(201);

    // The author submits a theme too: styles over a preset, a bad colour refused on the styles field.
    const authorTab = await open();
    const a = authorTab.page;
    await signIn(a, world.url, author);
    await authorTab.goto('/market/submit');
    await a.getByLabel('Theme (styles over a preset)').check();
    await a.getByLabel('Name', { exact: true }).fill('ocean');
    await a.getByLabel('Based on preset').selectOption('dark');
    await a.getByLabel('Styles (JSON)').fill('{ "colors": { "primary": "not a colour" } }');
    await a.getByRole('button', { name: 'Submit for review' }).click();
    await a.locator('.ap-field__error').filter({ hasText: /colour/ }).waitFor();
    await a.getByLabel('Styles (JSON)').fill('{ "colors": { "primary": "#0077be" } }');
    await a.getByRole('button', { name: 'Submit for review' }).click();
    await a.getByRole('row', { name: /ocean/ }).getByText('Pending review').waitFor();

    const adminTab = await open();
    const m = adminTab.page;
    await signIn(m, world.url, { email: ADMIN_EMAIL });
    await adminTab.goto('/marketplace-admin');
    await m.getByRole('region', { name: 'Themes awaiting review' }).getByRole('row', { name: /ocean/ }).waitFor();
    await m.getByRole('button', { name: 'Reject Sneaky' }).click();
    const dialog = m.getByRole('dialog', { name: 'Reject Sneaky?' });
    await dialog.getByRole('button', { name: 'Reject submission' }).click();
    await dialog.getByText('Give the author a reason.').waitFor();
    await dialog.getByLabel('Reason').fill(`The manifest asks for hosts it never uses. ${xssPayload('reason')}`);
    expect(await axeViolations(m)).toEqual([]);
    await dialog.getByRole('button', { name: 'Reject submission' }).click();
    await m.getByText('Sneaky was rejected.').waitFor();
    await m.getByRole('button', { name: 'Approve ocean' }).click();
    await m.getByText('ocean is published.').waitFor();

    await authorTab.goto('/market/submissions');
    const row = a.getByRole('row', { name: /Sneaky/ });
    await row.getByText('Rejected').waitFor();
    expect(await row.textContent()).toContain(`Reason: The manifest asks for hosts it never uses. ${xssPayload('reason')}`);
    expect(await axeViolations(a)).toEqual([]);
    await screenshot(a, 'marketplace-submissions');

    // The approved theme: under Themes, its page, added to the author's themes.
    await authorTab.goto('/market');
    await a.getByRole('button', { name: 'Themes' }).click();
    await a.getByRole('list', { name: 'Themes' }).getByRole('link', { name: 'ocean' }).click();
    await a.getByRole('heading', { name: 'ocean', level: 1 }).waitFor();
    await a.getByRole('button', { name: 'Add to my themes' }).click();
    await a.getByText('ocean was added to your themes', { exact: false }).waitFor();
    expect(await axeViolations(a)).toEqual([]);

    // The marketplace stops answering: the browse screen shows the API's 503 with a retry; other screens go on.
    await world.market!.stop();
    await authorTab.goto('/market');
    const failure = a.getByRole('alert').filter({ hasText: /marketplace/i });
    await failure.waitFor();
    await failure.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await axeViolations(a)).toEqual([]);
    await screenshot(a, 'marketplace-down');
    await authorTab.goto('/applications');
    await a.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
  });
});
