import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { describeInBrowser } from '../browser/support/browser';
import { csvOf, twoVersions } from '../e2e/core-api/evaluations/evaluation-support';
import { paidUserWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** The Evaluate tab in Chromium: a dataset made by hand and from a CSV, a run against two versions, its results and the comparison. */
describeInBrowser('console: evaluations', () => {
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

  it('creates a dataset, adds and imports questions, runs it against two versions and lists the questions whose verdict changed', async () => {
    const { page } = tab;
    const owner = await paidUserWithApplication(world.stack);
    await twoVersions(world.stack.client, owner.token, owner.app.id);
    await signIn(page, world.url, owner);
    await tab.goto(`/applications/${owner.app.id}/evaluate`);
    await page.getByRole('heading', { name: 'No evaluations yet' }).waitFor();

    await page.getByLabel('Name of the new dataset').fill('JSON answers');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByText('This dataset has no questions yet.').waitFor();

    const hostile = xssPayload('question');
    await page.getByLabel('Question', { exact: true }).fill(hostile);
    await page.getByLabel('Expected answer (optional)').fill('4');
    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByRole('table', { name: 'Questions' }).getByRole('rowheader', { name: hostile }).waitFor();

    await page.getByLabel('Import questions from a file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(6, 12)) });
    await page.getByText('Imported 6 questions.').waitFor();
    await page.getByRole('option', { name: 'JSON answers (7 questions, version 3)' }).waitFor({ state: 'attached' });
    // A refused file says why, in words.
    await page.getByLabel('Import questions from a file').setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('title,body\na,b\n') });
    await page.getByText(/The file was refused: .*header row/).waitFor();

    await page.getByLabel('Main: v1 · full').check();
    await page.getByLabel('Main: v2 · short').check();
    await page.getByLabel('Pass when at least this share of questions passes (%)').fill('90');
    await page.getByRole('button', { name: 'Start evaluation' }).click();
    const runs = page.getByRole('table', { name: 'Evaluations' });
    await runs.getByRole('cell', { name: 'Finished · Did not pass' }).waitFor({ timeout: 30_000 });
    await runs.getByRole('cell', { name: '14 of 14 answered' }).waitFor();
    await page.getByText(/v1 · full: 86% passed \(95% interval/).waitFor();
    await page.getByText(/v2 · short: 43% passed/).waitFor();
    const results = page.getByRole('table', { name: /^Results of JSON answers/ });
    expect(await results.getByRole('row').count()).toBe(15);
    expect(await axeViolations(page)).toEqual([]);

    // The results as files: one row per question, target and check, as the table shows them.
    const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export results as CSV' }).click()]);
    expect(csvFile.suggestedFilename()).toMatch(/^JSON-answers-v3-[0-9a-f]{8}\.csv$/);
    const table = parse(await readFile((await csvFile.path())!, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(table).toHaveLength(14);
    expect(table.filter((r) => r.target === 'v1 · full').map((r) => r.passed).filter((p) => p === 'true')).toHaveLength(6);
    expect(table.filter((r) => r.target === 'v2 · short').map((r) => r.passed).filter((p) => p === 'true')).toHaveLength(3);
    expect(table.find((r) => r.input === hostile)).toMatchObject({ expected: '4', evaluator: 'Exact match', type: 'exact', passed: 'false' });
    const [jsonFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export results as JSON' }).click()]);
    const exported = JSON.parse(await readFile((await jsonFile.path())!, 'utf8'));
    expect(exported).toMatchObject({ name: 'JSON answers v3', status: 'completed', datasetVersion: 3 });
    expect(exported.rows.map((r: { target: string; evaluator: string }) => `${r.target}/${r.evaluator}`)).toEqual(table.map((r) => `${r.target}/${r.evaluator}`));

    await page.getByLabel('Before').selectOption({ label: 'JSON answers v3 · v1 · full' });
    await page.getByLabel('After').selectOption({ label: 'JSON answers v3 · v2 · short' });
    await page.getByRole('button', { name: 'Show changed verdicts' }).click();
    const changed = page.getByRole('list', { name: '3 questions of 7 changed verdict' });
    await changed.waitFor();
    expect(await changed.getByRole('listitem').count()).toBe(3);
    expect(await changed.getByRole('listitem').first().textContent()).toContain('Now fails');
    await screenshot(page, 'evaluations');
    expect(await axeViolations(page)).toEqual([]);
  });
});
