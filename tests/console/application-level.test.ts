import type { Page } from 'playwright-core';
import { describeInBrowser } from '../browser/support/browser';
import { makeTeam } from '../support/sso-teams';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Each tab: the label in the application's navigation, its address and what shows once its screen has loaded. */
const TABS: { label: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { label: 'Overview', path: 'overview', ready: (p) => p.getByText('None yet: the platform default answers').waitFor() },
  { label: 'Build', path: 'build', ready: (p) => p.getByRole('heading', { name: 'No model configs yet' }).waitFor() },
  { label: 'Knowledge', path: 'knowledge', ready: (p) => p.getByRole('heading', { name: 'No documents yet' }).waitFor() },
  { label: 'Tools', path: 'tools', ready: (p) => p.getByRole('heading', { name: 'No tools yet' }).waitFor() },
  { label: 'Logs', path: 'logs', ready: (p) => p.getByRole('heading', { name: 'Annotations', exact: true }).waitFor() },
  { label: 'Evaluate', path: 'evaluate', ready: (p) => p.getByRole('heading', { name: 'No evaluations yet' }).waitFor() },
  { label: 'Analytics', path: 'analytics', ready: (p) => p.getByRole('heading', { name: 'No usage in this period' }).waitFor() },
  { label: 'Publish & embed', path: 'publish', ready: (p) => p.getByRole('heading', { name: 'Themes & branding', level: 2 }).waitFor().then(() => p.getByLabel('Widget snippet').waitFor()) },
  { label: 'Settings', path: 'settings', ready: (p) => p.getByRole('heading', { name: 'Delete the application' }).waitFor() },
];

/** The pickers every per-application screen used to open with (their element ids): none may show at application level. */
const PICKERS = ['#mc-app', '#pt-app', '#kn-app', '#tools-app', '#branding-app', '#dm-app'];

/**
 * The application level in Chromium: an application opened from the list, every tab reached through its own
 * navigation without choosing the application again, its name on each; switching keeps the tab; two applications
 * of the same name told apart; the old addresses open the tab; axe on every screen; and the phone width (390 px).
 */
describeInBrowser('console: the application level', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    world = await startConsoleStack();
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  /** An owner with two applications of the same name (as an import may leave them) and a third. */
  async function ownerWithTwins() {
    const owner = await userWithApplication(world.stack.client, { name: 'Harbour Help', description: 'Answers harbour questions' });
    const twin = await world.stack.client.post('/api/applications', { name: 'Harbour Help', slug: `harbour-help-imported-${++twins}` }, { token: owner.token });
    const other = await world.stack.client.post('/api/applications', { name: xssPayload('other') }, { token: owner.token });
    expect([twin.status, other.status]).toEqual([201, 201]);
    return { owner, first: owner.app, twin: twin.body as { id: string; slug: string }, other: other.body as { id: string } };
  }

  let twins = 0;
  const short = (id: string) => id.slice(0, 8);

  it('opens an application from the list and visits every tab through its navigation, its name on each, no picker anywhere, axe clean', async () => {
    const { page } = tab;
    const { owner, first } = await ownerWithTwins();
    await signIn(page, world.url, owner);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('link', { name: `Open Harbour Help (${short(first.id)})` }).click();
    await page.waitForURL(`**/applications/${first.id}/overview`);

    const tabs = page.getByRole('navigation', { name: 'Application sections' });
    await tabs.getByRole('link', { name: 'Settings', exact: true }).waitFor();
    expect(await tabs.getByRole('link').allTextContents()).toEqual(TABS.map((t) => t.label));
    for (const { label, path, ready } of TABS) {
      await tabs.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`**/applications/${first.id}/${path}`);
      await ready(page);
      expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Harbour Help']);
      expect(await tabs.locator('[aria-current="page"]').textContent()).toBe(label);
      expect(await page.locator('#ap-app-switch').inputValue()).toBe(first.id);
      for (const picker of PICKERS) expect(await page.locator(picker).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `application-${path}`);
    }

    // Settings edits this application, chosen nowhere but in the list: the header follows the new name.
    await page.getByLabel('Name').fill('Harbour Helpdesk');
    await page.getByLabel('Allowed origins').fill('https://harbour.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Helpdesk' }).waitFor();
    const saved = await world.stack.client.get(`/api/applications/${first.id}`, { token: owner.token });
    expect(saved.body).toMatchObject({ name: 'Harbour Helpdesk', allowedOrigins: ['https://harbour.example.com'] });
    await tabs.getByRole('link', { name: 'Publish & embed' }).click();
    await page.getByText('https://harbour.example.com').first().waitFor();

    // Settings moves it into a team of the owner's: the header says who holds it now.
    const team = await makeTeam(world.stack, owner.user.id);
    await tabs.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Team', { exact: true }).selectOption(team.id);
    await page.getByRole('button', { name: 'Move to the team' }).click();
    await page.getByText(`Moved to the team “Team ${team.slug}”.`).waitFor();
    await page.locator('.ap-app-header__facts').getByText(`Team ${team.slug} (team)`).waitFor();
    expect((await world.stack.client.get(`/api/applications/${first.id}`, { token: owner.token })).body.teamId).toBe(team.id);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('switches to the other application keeping the tab, and tells two of the same name apart', async () => {
    const { page } = tab;
    const { owner, first, twin, other } = await ownerWithTwins();
    await signIn(page, world.url, owner);
    await tab.goto(`/applications/${first.id}/knowledge`);
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();

    const switcher = page.locator('#ap-app-switch');
    const options = await switcher.locator('option').allTextContents();
    expect(options).toContain(`Harbour Help · ${short(first.id)}`);
    expect(options).toContain(`Harbour Help · ${short(twin.id)}`);
    expect(options).toContain(`${xssPayload('other')} · ${short(other.id)}`);
    const facts = page.locator('.ap-app-header__facts');
    expect(await facts.textContent()).toContain(short(first.id));

    await switcher.selectOption(twin.id);
    await page.waitForURL(`**/applications/${twin.id}/knowledge`);
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
    await facts.getByText(short(twin.id)).waitFor();
    expect(await facts.textContent()).toContain('harbour-help-imported');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Harbour Help');
    expect(await page.getByRole('navigation', { name: 'Application sections' }).locator('[aria-current="page"]').textContent()).toBe('Knowledge');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('opens the tab from the old per-application addresses, for the named application or the first', async () => {
    const { page } = tab;
    const { owner, twin, ...others } = await ownerWithTwins();
    await signIn(page, world.url, owner);
    await tab.goto(`/knowledge?app=${twin.id}`);
    await page.waitForURL(`**/applications/${twin.id}/knowledge`);
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
    await tab.goto(`/model-configs?app=${twin.id}`);
    await page.waitForURL(`**/applications/${twin.id}/build`);
    await tab.goto('/tools');
    await page.waitForURL(/\/applications\/[0-9a-f-]{36}\/tools$/);
    const opened = new URL(page.url()).pathname.split('/')[2];
    expect([others.first.id, twin.id, others.other.id]).toContain(opened);
    await tab.goto('/api-keys');
    await page.waitForURL(/\/applications\/[0-9a-f-]{36}\/publish$/);
    // A workspace-wide view stays one when no application is named.
    await tab.goto('/analytics');
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/analytics');
    // The workspace navigation keeps what is not an application's.
    const main = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    for (const gone of ['Knowledge', 'Tools & MCP', 'Model configs', 'Prompts', 'API keys & embed', 'Themes & branding', 'Custom domains', 'Analytics', 'Uploads']) expect(main).not.toContain(gone);
    for (const kept of ['Applications', 'Marketplace', 'Plugins', 'Workflows', 'Teams', 'Webhooks', 'Audit log', 'Account']) expect(main).toContain(kept);
  });

  it('at 390 px: the menu button folds the navigation, the content starts in the first screenful, a table action is reachable', async () => {
    const { page } = tab;
    const { owner, first } = await ownerWithTwins();
    const key = await world.stack.client.post('/api/api-keys', { name: 'Harbour website key with a long name', applicationId: first.id }, { token: owner.token });
    expect(key.status).toBe(201);
    await signIn(page, world.url, owner);
    await page.setViewportSize({ width: 390, height: 844 });

    // The applications list: the menu folded, the list in the first screenful, each row's actions in view.
    await tab.goto('/applications');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('row', { name: /harbour-help-imported/ }).waitFor();
    const main = (await page.locator('#main').boundingBox())!;
    expect(main.y).toBeLessThan(844 / 3);
    const edit = page.getByRole('button', { name: 'Edit Harbour Help' }).first();
    const box = (await edit.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'phone-applications');

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Applications' }).waitFor();
    await screenshot(page, 'phone-menu');
    await menu.click();

    // Every tab at 390 px: the content starts in the first screenful and nothing makes the page wider than the screen.
    for (const { path, ready } of TABS) {
      await tab.goto(`/applications/${first.id}/${path}`);
      await ready(page);
      expect((await page.locator('.ap-app-body').boundingBox())!.y).toBeLessThan(844 * 0.6);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
    }
    await screenshot(page, 'phone-application-settings');

    // An application's tab: header, tabs and content start in the first screenful; the key's actions are reachable.
    await tab.goto(`/applications/${first.id}/publish`);
    const row = page.getByRole('row', { name: /Harbour website key/ });
    await row.waitFor();
    const content = (await page.locator('.ap-app-body').boundingBox())!;
    expect(content.y).toBeLessThan(844);
    expect((await page.getByRole('heading', { level: 1, name: 'Harbour Help' }).boundingBox())!.y).toBeLessThan(844 / 3);
    const revoke = row.getByRole('button', { name: 'Revoke Harbour website key with a long name' });
    const revokeBox = (await revoke.boundingBox())!;
    expect(revokeBox.x + revokeBox.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: /Revoke/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'phone-application-publish');
  });
});
