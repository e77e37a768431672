import { describeInBrowser } from '../browser/support/browser';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Prompt templates in Chromium: the variables found as typed, the server's render preview, a missing value on its field, default, delete. */
describeInBrowser('console: prompt templates', () => {
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

  it('writes a template, lists its variables, previews it with sample values, saves, edits, switches the default and deletes', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Gadget Shop' });
    await signIn(page, world.url, owner);
    await tab.goto('/prompts');
    await page.getByRole('heading', { name: 'No prompt templates yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByLabel('Name').fill('Greeting');
    await page.getByLabel('Template', { exact: true }).fill('Hello {{ customer }}, your order {{order.id}} ships {{when}}. Thanks, {{customer}}!');
    const found = page.getByRole('list', { name: 'Variables found' });
    expect(await found.getByRole('listitem').allTextContents()).toEqual(['customer', 'order.id', 'when']);

    // A value missing: the server's 400 on that variable's field.
    const hostile = xssPayload('sample');
    await page.getByLabel('Sample value for customer').fill(hostile);
    await page.getByLabel('Sample value for order.id').fill('A-17');
    await page.getByRole('button', { name: 'Render preview' }).click();
    await page.locator('.ap-field__error').filter({ hasText: /when/ }).waitFor();
    await page.getByLabel('Sample value for when').fill('tomorrow');
    await page.getByRole('button', { name: 'Render preview' }).click();
    const preview = page.getByLabel('Preview', { exact: true });
    await preview.waitFor();
    expect(await preview.textContent()).toBe(`Hello ${hostile}, your order A-17 ships tomorrow. Thanks, ${hostile}!`);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'prompts-editor');

    await page.getByRole('button', { name: 'Create' }).click();
    const greeting = page.getByRole('row', { name: /Greeting/ });
    await greeting.waitFor();
    expect(await greeting.textContent()).toContain('customer, order.id, when');

    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByLabel('Name').fill('Plain');
    await page.getByLabel('Template', { exact: true }).fill('You are a helpful assistant.');
    await page.getByText('No variables in this template.').waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    const plain = page.getByRole('row', { name: /Plain/ });
    await plain.waitFor();

    await page.getByRole('button', { name: 'Make Plain the default' }).click();
    await plain.getByText('default').waitFor();
    await page.getByRole('button', { name: 'Make Greeting the default' }).click();
    await greeting.getByText('default').waitFor();
    await plain.getByText('default').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Edit Plain' }).click();
    await page.getByRole('heading', { name: 'Editing Plain' }).waitFor();
    await page.getByLabel('Template', { exact: true }).fill('You help {{ team }}.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await plain.getByText('team').waitFor();
    await screenshot(page, 'prompts');

    await page.getByRole('button', { name: 'Delete Plain' }).click();
    await page.getByRole('dialog', { name: 'Delete Plain?' }).getByRole('button', { name: 'Delete template' }).click();
    await plain.waitFor({ state: 'detached' });
    const listed = await world.stack.client.get(`/api/prompts?applicationId=${owner.app.id}`, { token: owner.token });
    expect((listed.body as { name: string; isDefault: boolean }[]).map((p) => [p.name, p.isDefault])).toEqual([['Greeting', true]]);
    expect(await axeViolations(page)).toEqual([]);
  });
  it('asks before an edited template is lost by leaving the page, keeps it on Stay, and lets the user leave', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Gadget Shop' });
    await signIn(page, world.url, owner);
    await tab.goto('/prompts');
    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByLabel('Name').fill('Half written');
    await page.getByLabel('Template', { exact: true }).fill('You answer {{ topic }} questions.');

    await page.getByRole('link', { name: 'Account' }).click();
    const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
    await ask.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Stay on this page' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('Template', { exact: true }).inputValue()).toBe('You answer {{ topic }} questions.');
    expect(new URL(page.url()).pathname).not.toBe('/account');

    await page.getByRole('link', { name: 'Account' }).click();
    await ask.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/account'));

    // Nothing was edited: leaving asks nothing.
    await tab.goto('/prompts');
    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/account'));
  });
});
