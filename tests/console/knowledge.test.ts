import { describeInBrowser } from '../browser/support/browser';
import { aDocx, anImageOnlyPdf, aPdf, wordParagraph } from '../support/document-fixtures';
import { registerUser, userWithApplication } from '../support/test-stack';
import { sendForm } from '../e2e/core-api/uploads/send-form';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Knowledge in Chromium: drag-and-drop and picker uploads, live processing, a failed document's reason, search modes, delete. */
describeInBrowser('console: knowledge', () => {
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

  it('uploads PDF, Word and Markdown by drop and picker, shows them processed with chunk counts, searches them by mode, and deletes one', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Gadget Shop' });
    await signIn(page, world.url, owner);
    await tab.goto('/knowledge');
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
    expect(await page.getByLabel('Application', { exact: true }).inputValue()).toBe(owner.app.id);
    expect(await axeViolations(page)).toEqual([]);

    // Drag and drop: a PDF and a Word document, dropped together on the zone.
    const pdf = await aPdf(['Zephyr-9 drones fly for 42 minutes on one charge.', 'Batteries are swapped in 30 seconds.']);
    const docx = await aDocx(wordParagraph('Returns', 'Heading1') + wordParagraph('Customers may return any gadget within 30 days for a full refund.'));
    const dropped = await page.evaluateHandle(
      ([pdfBytes, docxBytes]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(pdfBytes)], 'drone-manual.pdf', { type: 'application/pdf' }));
        transfer.items.add(new File([new Uint8Array(docxBytes)], 'returns.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }));
        return transfer;
      },
      [[...pdf], [...docx]] as const,
    );
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: dropped });
    await page.getByRole('list', { name: 'Uploads' }).getByText('returns.docx is being processed.').waitFor();

    // The file picker: a Markdown file whose name would run a script if it were treated as HTML.
    const hostileName = `${xssPayload('docname')}.md`;
    await page.getByLabel('Files to upload').setInputFiles({ name: hostileName, mimeType: 'text/markdown', buffer: Buffer.from('# Shipping\n\nParcels leave the warehouse within two working days.\n') });

    const row = (name: string | RegExp) => page.getByRole('row', { name });
    await row(/drone-manual\.pdf/).getByText('Ready').waitFor();
    await row(/returns\.docx/).getByText('Ready').waitFor();
    await row(/docname/).getByText('Ready').waitFor();
    expect(await row(/drone-manual\.pdf/).textContent()).toContain('2 chunks');
    expect(await row(/returns\.docx/).textContent()).toMatch(/1 chunk(?!s)/);
    expect(await row(/docname/).locator('th').textContent()).toContain(hostileName);

    // The search tester: keyword finds the PDF's page, vector mode answers scored hits too.
    await page.getByLabel('Query').fill('How many minutes do Zephyr-9 drones fly?');
    await page.getByLabel('Mode').selectOption('keyword');
    await page.getByRole('button', { name: 'Search' }).click();
    const hits = page.getByRole('list', { name: 'Search tester' });
    const first = hits.getByRole('listitem').first();
    await first.waitFor();
    expect(await first.textContent()).toMatch(/drone-manual\.pdf · chunk \d+ · page 1 · score -?\d\.\d{3}Zephyr-9 drones fly for 42 minutes/);
    await page.getByLabel('Query').fill('return a gadget for a refund');
    await page.getByLabel('Mode').selectOption('vector');
    await page.getByRole('button', { name: 'Search' }).click();
    await hits.getByText(/section Returns/).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'knowledge');

    await page.getByLabel('Query').fill('   ');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('.ap-field__error').getByText('Type a query.').waitFor();

    // Delete with confirmation.
    await page.getByRole('button', { name: 'Delete returns.docx' }).click();
    await page.getByRole('dialog', { name: 'Delete returns.docx?' }).getByRole('button', { name: 'Delete document' }).click();
    await row(/returns\.docx/).waitFor({ state: 'detached' });
    const listed = await world.stack.client.get(`/api/knowledge?applicationId=${owner.app.id}`, { token: owner.token });
    expect((listed.body as { fileName: string }[]).map((d) => d.fileName).sort()).toEqual(['drone-manual.pdf', hostileName].sort());
  });

  it('shows a refused upload’s reason at once and a document whose processing fails with its error', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Broken Embeddings' });
    await world.stack.client.put('/api/provider-keys/provider_d', { apiKey: 'hf_rejected_embedding_key' }, { token: owner.token });
    await signIn(page, world.url, owner);
    await tab.goto('/knowledge');
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();

    // Refused at once: a scanned PDF has no text layer.
    await page.getByLabel('Files to upload').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: await anImageOnlyPdf() });
    await page.getByRole('list', { name: 'Uploads' }).getByText(/^scan\.pdf was refused: .*no text layer/).waitFor();

    // Accepted, then failed in the background: the provider refuses the key that would embed it.
    await page.getByLabel('Embeddings for new uploads').selectOption('provider_d');
    await page.getByLabel('Files to upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Opening hours are nine to five.') });
    const failed = page.getByRole('row', { name: /notes\.txt/ });
    await failed.getByText(/^Failed: Embedding failed: .*provider_d/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'knowledge-failed');
  });

  it('leads an account without applications to create one', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await tab.goto('/knowledge');
    await page.getByRole('heading', { name: 'No applications yet' }).waitFor();
    await page.getByRole('link', { name: 'Create an application' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('replaces a document by a new version, edits and leaves out a chunk, and saves retrieval settings', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Returns Desk' });
    const first = await sendForm(world.stack.client.baseUrl, '/api/knowledge', {
      token: owner.token, fields: { applicationId: owner.app.id }, file: { name: 'returns-policy.md', bytes: '# Returns\n\nReturns are accepted within 45 days.' },
    });
    await signIn(page, world.url, owner);
    await tab.goto('/knowledge');
    const row = page.getByRole('row', { name: /returns-policy\.md/ });
    await row.getByText('Ready').waitFor();
    await page.getByRole('button', { name: 'Versions and chunks of returns-policy.md' }).click();
    const panel = page.getByRole('region', { name: 'Versions and chunks of returns-policy.md' });
    await panel.getByRole('list', { name: 'Versions' }).getByText(/Version 1 · In use/).waitFor();

    await panel.getByLabel('New version of this file').setInputFiles({ name: 'returns-policy.md', mimeType: 'text/markdown', buffer: Buffer.from('# Returns\n\nReturns are accepted within 60 days.') });
    await panel.getByRole('list', { name: 'Versions' }).getByText(/Version 2 · In use/).waitFor();
    await panel.getByRole('button', { name: 'Bring back version 1' }).waitFor();
    const chunkText = panel.getByLabel('Text of chunk 1');
    await expectValue(chunkText, /60 days/);

    await chunkText.fill('Returns are accepted within 90 days with a receipt.');
    await panel.getByRole('button', { name: 'Save text' }).click();
    await panel.getByText('Chunk saved.').waitFor();
    await panel.getByRole('button', { name: 'Leave out' }).click();
    await panel.getByText(/Left out of answers/).waitFor();
    const chunks = await world.stack.client.get(`/api/knowledge/${first.body.id}/chunks`, { token: owner.token });
    expect(chunks.body).toEqual([expect.objectContaining({ content: 'Returns are accepted within 90 days with a receipt.', enabled: false })]);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Passages given to the chat (at most)').fill('3');
    await page.getByLabel('Lowest relevance score (0 to 1)').fill('0.3');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const settings = await world.stack.client.get(`/api/knowledge/settings/${owner.app.id}`, { token: owner.token });
    expect(settings.body).toMatchObject({ topK: 3, scoreThreshold: 0.3 });
    await screenshot(page, 'knowledge-maintenance');
  });
});

async function expectValue(locator: import('playwright-core').Locator, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (pattern.test(await locator.inputValue())) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await locator.inputValue()).toMatch(pattern);
}
