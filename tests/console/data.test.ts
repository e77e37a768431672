import { readFileSync } from 'node:fs';
import { describeInBrowser } from '../browser/support/browser';
import { exportWhenDone, unzip } from '../e2e/core-api/data-export/data-export-support';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** Data in Chromium: the account's exports listed (after a reload too), followed until ready and downloaded; an import with one result per record. */
describeInBrowser('console: data export and import', () => {
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

  it('exports everything, shows the job until ready and downloads the file', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client, { name: 'Exported app' });
    await signIn(page, world.url, user);
    await tab.goto('/data');
    await page.getByText('No export requested yet.').waitFor();
    await page.getByRole('button', { name: 'Start export' }).click();
    const row = page.getByRole('table', { name: 'Export' }).getByRole('row', { name: /Everything · JSON/ });
    await row.getByText('Ready').waitFor({ timeout: 20_000 });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'data');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download the Everything · JSON export' }).click()]);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(file.applications.map((a: { name: string }) => a.name)).toEqual(['Exported app']);

    // One export at a time: the API's 409 is shown on the action.
    await page.route('**/api/data-export', (route) =>
      route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ statusCode: 409, error: 'Conflict', message: 'An export is already being prepared' }) }),
    );
    await page.getByLabel('Format').selectOption('csv');
    await page.getByRole('button', { name: 'Start export' }).click();
    await page.getByRole('alert').filter({ hasText: 'An export is already being prepared' }).waitFor();
  });

  it('lists the exports from the API: one started before a reload is still there, followed until ready and downloaded', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client, { name: 'Reloaded app' });
    // One made elsewhere (another device, the API) is listed too, below the newer one.
    const earlier = await world.stack.client.post('/api/data-export', { resources: 'analytics', format: 'json' }, { token: user.token });
    expect(earlier.status).toBe(202);
    await exportWhenDone(world.stack, earlier.body.id, user.token);
    await signIn(page, world.url, user);
    await tab.goto('/data');
    const table = page.getByRole('table', { name: 'Export' });
    await table.getByRole('row', { name: /Analytics · JSON/ }).getByText('Ready').waitFor();

    await page.getByLabel('What to export').selectOption('applications');
    await page.getByLabel('Format').selectOption('csv');
    await page.getByRole('button', { name: 'Start export' }).click();
    // The new export at the top, before and after the reload.
    await table.getByRole('row', { name: /Applications · CSV/ }).waitFor();
    expect(await table.getByRole('row').nth(1).getByRole('rowheader').textContent()).toBe('Applications · CSV');
    await page.reload();
    const row = table.getByRole('row', { name: /Applications · CSV/ });
    await row.getByText('Ready').waitFor({ timeout: 20_000 });
    expect(await table.getByRole('row').nth(1).getByRole('rowheader').textContent()).toBe('Applications · CSV');
    expect(await table.getByRole('row').count()).toBe(3);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download the Applications · CSV export' }).click()]);
    const zip = await unzip(readFileSync((await download.path())!));
    expect(zip.get('applications.csv')).toContain('Reloaded app');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'data-list');
  });

  it('shows a failed list as an error with a retry', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client);
    await signIn(page, world.url, user);
    let refuse = true;
    await page.route((url) => url.pathname === '/api/data-export', (route) =>
      refuse && route.request().method() === 'GET'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'The exports cannot be read now' }) })
        : route.continue(),
    );
    await tab.goto('/data');
    const alert = page.getByRole('alert').filter({ hasText: 'The exports cannot be read now' });
    await alert.waitFor({ timeout: 15_000 });
    refuse = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('No export requested yet.').waitFor();
  });

  it('imports with a result per record, lists the items left out of one, skips a record imported before, and refuses JSON it cannot read', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client);
    await world.stack.setPlan(user.user.id, 'pro');
    await signIn(page, world.url, user);
    await tab.goto('/data');
    const json = page.getByLabel('Or paste the JSON');
    await json.fill('{ "applications": [');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText(/^Not valid JSON: /).waitFor();

    const name = xssPayload('import-name');
    const records = {
      version: 2,
      applications: [
        { clientId: 'good-1', name },
        { clientId: 'part-1', name: 'Partly broken', modelConfigs: [{ name: 'x', provider: 'provider_zz' }], conversations: [{ title: 'kept', messages: [{ role: 'user', content: 'hi' }] }] },
        { name: 'No client id' },
      ],
    };
    await json.fill(JSON.stringify(records));
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('status').filter({ hasText: '2 created, 0 skipped, 1 failed.' }).waitFor();
    const results = page.getByRole('table', { name: 'Import' });
    await results.getByRole('row', { name: /#1/ }).getByText('Created').waitFor();
    expect(await results.getByRole('row', { name: /#1/ }).getByRole('cell', { name }).count()).toBe(1);
    const partly = results.getByRole('row', { name: /#2/ });
    await partly.getByText('Created', { exact: true }).waitFor();
    expect(await partly.locator('td').last().textContent()).toMatch(/^Created without 1 item:modelConfigs\[0\] provider must be one of/);
    const failed = results.getByRole('row', { name: /#3/ });
    await failed.getByText('Failed').waitFor();
    expect(await failed.locator('td').last().textContent()).toMatch(/clientId/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'data-import');

    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('status').filter({ hasText: '0 created, 2 skipped, 1 failed.' }).waitFor();
    const apps = await world.stack.client.get('/api/applications', { token: user.token });
    expect(apps.body.filter((a: { name: string }) => a.name === name)).toHaveLength(1);

    // A file of a version this platform does not read yet is refused as a whole, saying so.
    await json.fill(JSON.stringify({ ...records, version: 3 }));
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText(/version 3 is newer than this platform reads/).waitFor();
  });
});
