import { describeInBrowser } from '../browser/support/browser';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** Knowledge bases in Chromium: the workspace page (create, open, upload, chunks, search, delete) and an application choosing the bases it answers from. */
describeInBrowser('console: knowledge bases', () => {
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

  it('creates a base, fills and searches it, lets an application answer from it, and deletes it', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Front Desk' });
    await signIn(page, world.url, owner);
    await tab.goto('/knowledge-bases');
    await page.getByRole('heading', { name: 'Knowledge bases', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No knowledge bases yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A name is needed; then the base is listed.
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByText('Give it a name.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Company handbook');
    await page.getByLabel('What it holds (optional)').fill('Rules every desk follows');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByText('Company handbook was created.').waitFor();
    const row = page.getByRole('row', { name: /Company handbook/ });
    await row.getByText('0 documents').waitFor();
    await row.getByText('Only me').waitFor();

    // Open it: upload a file, see it processed, its chunks, and search it.
    await page.getByRole('link', { name: 'Open Company handbook' }).click();
    await page.getByRole('heading', { name: 'Company handbook', level: 1 }).waitFor();
    await page.getByLabel('Files to upload').setInputFiles({
      name: 'travel.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Travel\n\nEmployees book train travel for any trip under 600 kilometres.\n'),
    });
    const doc = page.getByRole('row', { name: /travel\.md/ });
    await doc.getByText('Ready').waitFor();
    await page.getByRole('button', { name: 'Versions and chunks of travel.md' }).click();
    const panel = page.getByRole('region', { name: 'Versions and chunks of travel.md' });
    await panel.getByRole('list', { name: 'Versions' }).getByText(/Version 1 · In use/).waitFor();
    await panel.getByRole('list', { name: 'Chunks' }).getByText(/train travel/).first().waitFor();

    await page.getByLabel('Query').fill('When do employees take the train?');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('list', { name: 'Search tester' }).getByText('travel.md').first().waitFor();
    // The retrieval settings are an application's: a base alone has no "as the chat does".
    expect(await page.getByLabel('Use the retrieval settings, as the chat does').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'knowledge-base');

    // The application's Knowledge tab: choose the base, and its search finds the base's document.
    await tab.goto(`/knowledge?app=${owner.app.id}`);
    const shared = page.getByRole('region', { name: 'Shared knowledge bases' });
    await shared.getByLabel('Company handbook').check();
    await shared.getByRole('button', { name: 'Save choice' }).click();
    await shared.getByText('The application now answers from the chosen knowledge bases.').waitFor();
    const settings = await world.stack.client.get(`/api/knowledge/settings/${owner.app.id}`, { token: owner.token });
    expect(settings.body.bases).toEqual([expect.objectContaining({ name: 'Company handbook' })]);
    await page.getByLabel('Query').fill('train travel under 600 kilometres');
    await page.getByLabel('Use the retrieval settings, as the chat does').check();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('list', { name: 'Search tester' }).getByText('travel.md').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Delete it from the list, after confirmation.
    await tab.goto('/knowledge-bases');
    await page.getByRole('button', { name: 'Delete Company handbook' }).click();
    await page.getByRole('dialog', { name: 'Delete Company handbook?' }).getByRole('button', { name: 'Delete knowledge base' }).click();
    await page.getByRole('heading', { name: 'No knowledge bases yet' }).waitFor();
    expect((await world.stack.client.get(`/api/knowledge/settings/${owner.app.id}`, { token: owner.token })).body.bases).toEqual([]);
  });

  it('says so when a base cannot be opened', async () => {
    const { page } = tab;
    const stranger = await userWithApplication(world.stack.client, { name: 'Elsewhere' });
    const other = await userWithApplication(world.stack.client, { name: 'Private' });
    const base = await world.stack.client.post('/api/knowledge/bases', { name: 'Private notes' }, { token: other.token });
    await signIn(page, world.url, stranger);
    await tab.goto(`/knowledge-bases/${base.body.id}`);
    await page.getByText('This knowledge base does not exist, or you have no access to it.').waitFor();
    expect(await page.getByText('Private notes').count()).toBe(0);
  });
});
