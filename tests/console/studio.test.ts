import type { Page } from 'playwright-core';
import { describeInBrowser } from '../browser/support/browser';
import { createKey, withKey } from '../e2e/public-api/public-api-support';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Where the Build screen of an application lives: the one line to change when it moves under the application's own pages. */
const buildPath = (appId: string) => `/applications/${appId}/build`;

/** The studio in Chromium: the draft answers in the debug chat while end users keep the published version, until Publish; restore. */
describeInBrowser('console: studio (Build)', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    world = await startConsoleStack();
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    world.stack.emulator!.reset();
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  /** What the public API (an end user with the application's key) is answered now. */
  async function endUserAnswer(key: string, appId: string): Promise<string> {
    const res = await world.stack.client.post('/api/v1/chat', { message: 'Who are you?', applicationId: appId }, withKey(key));
    expect(res.status).toBe(200);
    return res.body.message.content as string;
  }

  async function publishWithNote(page: Page, note: string, version: number) {
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
    await dialog.getByLabel('Note').fill(note);
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `Published as version ${version}.` }).waitFor();
  }

  it('edits the instructions, answers with the draft in the debug chat while end users keep the published version, publishes, compares and restores', async () => {
    const { page } = tab;
    const appName = xssPayload('Harbour Help');
    const owner = await userWithApplication(world.stack.client, { name: appName });
    await world.stack.setPlan(owner.user.id, 'pro');
    const key = await createKey(world.stack.client, owner.token, { applicationId: owner.app.id });
    const studio = `/api/applications/${owner.app.id}/studio`;
    // What end users get today: version 1, published earlier.
    await world.stack.client.put(`${studio}/draft`, { instructions: 'You are Ada, a librarian.' }, { token: owner.token });
    await world.stack.client.post(`${studio}/publish`, { note: 'First words' }, { token: owner.token });

    await signIn(page, world.url, owner);
    await tab.goto(buildPath(owner.app.id));
    await page.getByRole('heading', { name: 'Build', exact: true }).waitFor();
    await page.getByText(appName).first().waitFor();
    await page.getByText('Live is version 1.').waitFor();
    await page.getByRole('button', { name: 'Compare version 1 with the draft' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A setting out of its range is said before any save.
    await page.getByLabel('Temperature').fill('7');
    await page.getByText('Temperature must be from 0 to 2.').waitFor();
    expect(await page.getByRole('button', { name: 'Save draft' }).isDisabled()).toBe(true);
    await page.getByLabel('Temperature').fill('0.3');

    await page.getByLabel('Instructions', { exact: true }).fill('You are {{name}}, a pirate.');
    await page.getByLabel('Value of name for end users').fill('Bo');
    await page.getByText('Unsaved changes').waitFor();

    // The debug chat answers with the draft as it is on screen, with this chat's value of the variable.
    await page.getByLabel('Value of name in this chat').fill('Cy');
    await page.getByLabel('Ask the draft').fill('Who are you?');
    await page.getByRole('button', { name: 'Send' }).click();
    // The debug chat renders through the shared transcript (components/chat), as the playground does.
    const transcript = page.locator('.ap-studio-chat .ap-transcript');
    await transcript.getByText('[system: You are Cy, a pirate.] Echo: Who are you?').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    // Under the answer what it used: model, tokens, its cost at the platform's prices, its time.
    const meta = transcript.getByRole('list', { name: 'About this answer' }).or(transcript.locator('.ap-answer-meta'));
    await meta.first().waitFor();
    expect(await meta.first().getByRole('term').allTextContents()).toEqual(expect.arrayContaining(['Model', 'Tokens', 'Cost']));
    expect(await meta.first().getByRole('definition').first().textContent()).toMatch(/^provider_a · /);
    expect(await meta.first().getByRole('definition').nth(2).textContent()).toMatch(/^\$/);
    expect(await transcript.locator('.ap-message--assistant').count()).toBe(1);
    // End users still get the published version.
    expect(await endUserAnswer(key.key, owner.app.id)).toContain('[system: You are Ada, a librarian.]');
    expect(await axeViolations(page)).toEqual([]);

    await publishWithNote(page, 'Pirate voice', 2);
    expect(await endUserAnswer(key.key, owner.app.id)).toContain('[system: You are Bo, a pirate.]');
    await page.getByText('Live is version 2.').waitFor();
    await page.getByText('Pirate voice').waitFor();
    await screenshot(page, 'studio-build');

    // Version 1 beside the draft, field by field.
    await page.getByRole('button', { name: 'Compare version 1 with the draft' }).click();
    const compare = page.getByRole('dialog', { name: 'Version 1 and the saved draft' });
    const instructionsRow = compare.getByRole('row', { name: /Instructions/ });
    await instructionsRow.waitFor();
    expect(await instructionsRow.getByRole('cell').allTextContents()).toEqual(['You are Ada, a librarian.', 'You are {{name}}, a pirate.']);
    expect(await instructionsRow.getByRole('rowheader').textContent()).toContain('changed');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'studio-compare');
    await compare.getByRole('button', { name: 'Close' }).click();

    // Restore puts version 1 back into the draft; end users get it once it is published.
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('dialog', { name: 'Restore version 1?' }).getByRole('button', { name: 'Restore into the draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Version 1 restored into the draft.' }).waitFor();
    await page.getByLabel('Instructions', { exact: true }).filter({ hasText: 'You are Ada, a librarian.' }).waitFor();
    expect(await endUserAnswer(key.key, owner.app.id)).toContain('[system: You are Bo, a pirate.]');
    await publishWithNote(page, 'Back to Ada', 3);
    expect(await endUserAnswer(key.key, owner.app.id)).toContain('[system: You are Ada, a librarian.]');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('asks before leaving with unsaved changes, and says which prompt wins when a template exists', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Template Shop' });
    await world.stack.client.post('/api/prompts', { applicationId: owner.app.id, name: 'Greeter', content: 'Template words', isDefault: true }, { token: owner.token });
    await world.stack.client.put(`/api/applications/${owner.app.id}/studio/draft`, { instructions: 'Config words' }, { token: owner.token });
    await world.stack.client.post(`/api/applications/${owner.app.id}/studio/publish`, {}, { token: owner.token });
    await signIn(page, world.url, owner);
    await tab.goto(buildPath(owner.app.id));
    await page.getByText('The default prompt template “Greeter” is not used: the model config’s instructions win.').waitFor();
    await page.getByText('from the default model config “Studio”').first().waitFor();

    await page.getByLabel('Opening message').fill('Welcome aboard');
    await page.getByLabel('Suggested questions').fill('Where is the lighthouse?');
    // The debug chat opens as end users' chat will: the opening message, and a suggested question to pick.
    await page.locator('.ap-studio-chat').getByText('Welcome aboard').waitFor();
    await page.getByRole('list', { name: 'Suggested questions' }).getByRole('button', { name: 'Where is the lighthouse?' }).click();
    expect(await page.getByLabel('Ask the draft').inputValue()).toBe('Where is the lighthouse?');
    await page.getByRole('link', { name: 'Manage tools' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await leave.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe(buildPath(owner.app.id));
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
    await page.getByRole('link', { name: 'Manage tools' }).click();
    await page.waitForURL(/\/tools/);
  });
});
