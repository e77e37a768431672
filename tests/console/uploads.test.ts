import { readFileSync } from 'node:fs';
import { describeInBrowser } from '../browser/support/browser';
import { registerUser } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** Uploads in Chromium: the limits shown, a file stored and downloaded, a refused type said, a delete. */
describeInBrowser('console: uploads', () => {
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

  it('uploads a file, refuses a type not allowed, downloads and deletes', async () => {
    const { page } = tab;
    const owner = await registerUser(world.stack.client);
    await signIn(page, world.url, owner);
    await tab.goto('/uploads');
    await page.getByRole('heading', { name: 'No uploads yet' }).waitFor();
    await page.getByText(/At most 10 MB\. Allowed: PNG, JPEG/).waitFor();

    const file = page.getByLabel('File to upload');
    await file.setInputFiles({ name: 'refund-policy.md', mimeType: 'text/markdown', buffer: Buffer.from('# Refunds\n\nWithin 30 days.\n') });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'refund-policy.md uploaded' }).waitFor();
    await page.getByRole('row', { name: /refund-policy\.md/ }).waitFor();

    // A program is no allowed type, whatever it claims: refused, and said.
    await file.setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /^setup\.exe was refused: / }).waitFor();
    expect((await world.stack.client.get('/api/uploads', { token: owner.access_token })).body).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'uploads');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download refund-policy.md' }).click()]);
    expect(readFileSync((await download.path())!, 'utf8')).toBe('# Refunds\n\nWithin 30 days.\n');

    await page.getByRole('button', { name: 'Delete refund-policy.md' }).click();
    await page.getByRole('dialog', { name: 'Delete “refund-policy.md”?' }).getByRole('button', { name: 'Delete file' }).click();
    await page.getByRole('heading', { name: 'No uploads yet' }).waitFor();
  });
});
