import { describeInBrowser } from '../browser/support/browser';
import { axeViolations, freshEmail, screenshot, signUp, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** The Applications screen in Chromium against the composed platform. */
describeInBrowser('console: applications', () => {
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

  it('guides a new owner from the empty list to a created, edited and deleted application', async () => {
    const { page } = tab;
    await signUp(page, world.url, { email: freshEmail() });
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('heading', { name: 'No applications yet' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/applications');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'applications-empty');

    await page.getByRole('button', { name: 'New application' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an application' });
    await dialog.getByLabel('Name').fill('Harbour Help');
    await dialog.getByLabel('Description').fill('Answers questions about moorings');
    await dialog.getByLabel('Allowed origins').fill('https://harbour.example.com\nhttps://docks.example.com');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'applications-create');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /Harbour Help/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('https://harbour.example.com, https://docks.example.com');
    await expect(row.textContent()).resolves.toContain('harbour-help');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'applications-list');

    await page.getByRole('button', { name: 'Edit Harbour Help' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit application' });
    await expect(edit.getByLabel('Slug').inputValue()).resolves.toBe('harbour-help');
    await edit.getByLabel('Name').fill('Harbour Helpdesk');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Harbour Helpdesk/ }).waitFor();

    await page.getByRole('button', { name: 'Delete Harbour Helpdesk' }).click();
    const confirm = page.getByRole('dialog', { name: /Delete “Harbour Helpdesk”/ });
    await screenshot(page, 'applications-delete');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('row', { name: /Harbour Helpdesk/ }).waitFor();
    await page.getByRole('button', { name: 'Delete Harbour Helpdesk' }).click();
    await confirm.getByRole('button', { name: 'Delete application' }).click();
    await page.getByRole('heading', { name: 'No applications yet' }).waitFor();
  });

  it('shows the API’s refusal on the field it names, keeps what was typed, and shows names as text', async () => {
    const { page } = tab;
    await signUp(page, world.url, { email: freshEmail() });
    await tab.goto('/applications');
    const create = async (name: string, slug: string) => {
      await page.getByRole('button', { name: 'New application' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an application' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('Slug').fill(slug);
      await dialog.getByRole('button', { name: 'Create' }).click();
      return dialog;
    };
    const payload = xssPayload('app-name');
    const first = await create(payload, `taken-${Date.now()}`);
    await first.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /app-name/ }).waitFor();
    expect(await page.getByRole('row', { name: /app-name/ }).getByRole('rowheader').textContent()).toContain(payload);
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    const taken = (await page.locator('tbody code').first().textContent())!;
    const second = await create('Second desk', taken);
    const slugError = second.locator('.ap-field', { has: page.getByLabel('Slug') }).getByRole('alert');
    await slugError.waitFor();
    expect(await slugError.textContent()).toMatch(/slug/i);
    await expect(second.getByLabel('Name').inputValue()).resolves.toBe('Second desk');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'applications-error');

    await second.getByLabel('Slug').fill('');
    await second.getByRole('button', { name: 'Create' }).click();
    await second.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Second desk/ }).waitFor();
  });

  it('answers an unknown screen with a not-found view, and an unknown API path with JSON', async () => {
    const { page } = tab;
    await signUp(page, world.url, { email: freshEmail() });
    await tab.goto('/applications/nothing/here');
    await page.getByRole('heading', { name: 'Nothing here' }).waitFor();
    const res = await page.request.get(`${world.url}/api/no-such-thing`);
    expect(res.status()).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
