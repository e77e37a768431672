import { describeInBrowser } from '../browser/support/browser';
import { axeViolations, closeCheckedTab, freshEmail, screenshot, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** The setup link the start log printed (as `npm start` prints it). */
function setupLink(world: ConsoleStack): string {
  const line = world.stack.startLog.map((l) => JSON.parse(l) as { msg: string; url?: string }).find((l) => l.url?.includes('/setup?token='));
  if (!line) throw new Error('no setup link in the start log');
  expect(line.msg).toContain(line.url);
  return line.url!;
}

/**
 * A newcomer on a fresh self-hosted install, in Chromium: the start log's setup link makes them the admin, no plan
 * limit holds them, a second account signed up from `/` gets DEFAULT_PLAN with a true limit message, and without
 * payments no price, Subscribe button or invoice is shown anywhere.
 */
describeInBrowser('console: first run on a self-hosted install', () => {
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

  it('opens the setup link from the start log, becomes the admin, and creates five applications and three API keys without a plan limit', async () => {
    const { page } = tab;
    const startLog = world.stack.startLog.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(startLog).toContain(`Console: ${world.url}/`);
    await page.goto(setupLink(world));
    await page.getByRole('heading', { name: 'Set up this platform' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'setup');
    await page.getByLabel('Your name').fill('Grace Operator');
    await page.getByLabel('E-mail').fill(freshEmail('operator'));
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create the administrator account' }).click();

    // The guide, as the admin: the platform's keys serve, Admin is in the navigation, Billing is not.
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/start');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Admin' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Billing' }).count()).toBe(0);
    await page.getByText('As the platform’s administrator you chat on the platform’s own provider keys').waitFor();
    await page.getByRole('heading', { name: '2. Give it a model to talk to (Done)' }).waitFor();

    await page.getByLabel('Application name').fill('Lighthouse Desk');
    await page.getByRole('button', { name: 'Create application' }).click();
    await page.getByText('Your application “Lighthouse Desk” is ready.').waitFor();

    // Four more: five in all, past the Free plan's three.
    await nav.getByRole('link', { name: 'Applications' }).click();
    for (const name of ['Harbour Help', 'Tide Tables', 'Ferry Times', 'Pier Rules']) {
      await page.getByRole('button', { name: 'New application' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an application' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    }
    expect(await page.getByRole('row', { name: /Lighthouse Desk|Harbour Help|Tide Tables|Ferry Times|Pier Rules/ }).count()).toBe(5);

    // Three API keys, past the Free plan's two, on one application's Publish & embed tab.
    await page.getByRole('link', { name: /^Open Harbour Help/ }).click();
    await page.getByRole('navigation', { name: 'Application sections' }).getByRole('link', { name: 'Publish & embed' }).click();
    let raw = '';
    for (const name of ['Website', 'Kiosk', 'Mobile']) {
      await page.getByRole('button', { name: 'New API key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an API key' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByRole('button', { name: 'Create' }).click();
      const shown = page.getByRole('dialog', { name: 'Copy your new key now' });
      raw = await shown.getByLabel('New API key').inputValue();
      await shown.getByRole('button', { name: 'I have copied it' }).click();
      await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    }

    // A visitor's chat through that key (as the widget sends it): the guide marks its steps from what exists.
    const appId = new URL(page.url()).pathname.split('/')[2]!;
    const visitor = await world.stack.client.post('/api/v1/chat', { message: 'Is the lighthouse open?', applicationId: appId }, { headers: { 'X-API-Key': raw } });
    expect(visitor.status).toBe(200);
    await nav.getByRole('link', { name: 'Get started' }).click();
    for (const step of ['1. Create an application', '2. Give it a model to talk to', '3. Chat with it', '4. Put it on your site']) {
      await page.getByRole('heading', { name: `${step} (Done)` }).waitFor();
    }
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'start-admin-done');

    // No price, Subscribe button or invoice anywhere, the billing address included.
    await tab.goto('/billing');
    await page.getByRole('region', { name: 'Current plan' }).getByText('As the platform’s administrator, no plan limit applies to you.').waitFor();
    await page.getByText('This platform does not take payments: its administrator sets each account’s plan.').waitFor();
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/\$\s?\d|Subscribe|[Ii]nvoice|per month|customer portal/);
    expect(await page.getByRole('button', { name: /Subscribe/ }).count()).toBe(0);
  });

  it('signs a second account up from / into the guide, on DEFAULT_PLAN, with a true message at its limit', async () => {
    const { page } = tab;
    await tab.goto('/');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill(freshEmail('second'));
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/start');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Billing' }).count()).toBe(0);
    await page.getByRole('heading', { name: '1. Create an application (To do)' }).waitFor();
    await page.getByText('On the Free plan, chats use your own provider key.', { exact: false }).waitFor();

    await nav.getByRole('link', { name: 'Applications' }).click();
    for (const name of ['One', 'Two', 'Three', 'Four']) {
      await page.getByRole('button', { name: 'New application' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an application' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByRole('button', { name: 'Create' }).click();
      if (name === 'Four') break;
      await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    }
    const alert = page.getByRole('dialog', { name: 'Create an application' }).getByRole('alert');
    await alert.getByText("The Free plan allows 3 applications, and all are in use. To create another application, ask the platform's administrator to raise your plan.").waitFor();
    const said = (await alert.textContent()) ?? '';
    expect(said).not.toMatch(/upgrade|provider key|\/api\/|[A-Z]{3,}_[A-Z]+/i);
    expect(await alert.getByRole('link').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'plan-limit-no-billing');
  });
});
