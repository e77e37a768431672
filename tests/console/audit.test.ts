import { describeInBrowser } from '../browser/support/browser';
import { registerUser } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** The audit log in Chromium: an application's changes, filtered by the application, "By" naming the person. */
describeInBrowser('console: audit log', () => {
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

  it("lists an application's changes when filtered by it, each by the person's name and e-mail", async () => {
    const { page } = tab;
    const client = world.stack.client;
    const owner = await registerUser(client, { displayName: 'Ada Auditor' });
    const token = owner.access_token;
    const app = (await client.post('/api/applications', { name: 'Ledger Desk' }, { token })).body as { id: string };
    const other = (await client.post('/api/applications', { name: 'Other Desk' }, { token })).body as { id: string };
    expect((await client.put(`/api/applications/${app.id}`, { allowedOrigins: ['https://shop.example.com'] }, { token })).status).toBe(200);
    expect((await client.post('/api/prompts', { applicationId: app.id, name: 'Greeting', content: 'Hello' }, { token })).status).toBe(201);
    expect((await client.put(`/api/applications/${other.id}`, { description: 'elsewhere' }, { token })).status).toBe(200);

    await signIn(page, world.url, owner);
    await tab.goto('/audit');
    await page.getByRole('row', { name: /prompt\.create/ }).waitFor();
    await page.getByLabel('Application').selectOption({ label: 'Ledger Desk' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('application') === app.id);
    await page.getByText('3 records').waitFor();
    const update = page.getByRole('row', { name: /application\.update/ });
    await update.waitFor();
    // "By": the person, not a bare id.
    expect(await update.getByRole('cell').nth(2).textContent()).toContain('Ada Auditor');
    expect(await update.textContent()).toContain(owner.email);
    expect(await update.textContent()).toContain('allowedOrigins');
    expect(await update.textContent()).not.toContain(owner.user.id);
    for (const action of ['application.create', 'prompt.create']) await page.getByRole('row', { name: new RegExp(action.replace('.', '\\.')) }).waitFor();
    expect(await page.getByText('elsewhere').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'audit-application');
  });
});
