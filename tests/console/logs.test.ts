import { readFile } from 'node:fs/promises';
import { describeInBrowser } from '../browser/support/browser';
import { anOwnerWithKey, withKey } from '../e2e/public-api/public-api-support';
import { flushTraces } from '../e2e/traces/trace-support';
import { axeViolations, closeCheckedTab, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** The Logs tab in Chromium: a widget and a public-API conversation, the filters, one conversation, an annotation listed and exported. */
describeInBrowser('console: logs and annotations', () => {
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

  it('lists the widget’s and the public API’s conversations, filters them, opens one, annotates an answer, then lists and exports the annotation', async () => {
    const { page } = tab;
    const owner = await anOwnerWithKey(world.stack, { appName: 'Harbour Help' });
    const chat = (message: string, headers: Record<string, string> = {}) =>
      world.stack.client.post('/api/v1/chat', { message, applicationId: owner.app.id }, withKey(owner.key.key, headers));
    expect((await chat('Where is my parcel?', { 'X-Client': 'widget' })).status).toBe(200);
    expect((await chat('Which plans do you sell?')).status).toBe(200);

    await signIn(page, world.url, owner.user);
    await tab.goto(`/applications/${owner.app.id}/logs`);
    await page.getByRole('button', { name: 'Open “Where is my parcel?”' }).waitFor();
    await page.getByRole('button', { name: 'Open “Which plans do you sell?”' }).waitFor();
    expect(await page.getByRole('row', { name: /Where is my parcel\?/ }).getByText('Widget').count()).toBe(1);

    await page.getByLabel('Channel').selectOption({ label: 'Widget' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('button', { name: 'Open “Which plans do you sell?”' }).waitFor({ state: 'detached' });
    await page.getByLabel('Channel').selectOption({ label: 'Any channel' });
    await page.getByLabel('Search messages').fill('plans');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('button', { name: 'Open “Where is my parcel?”' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Clear filters' }).click();

    // The answer's own trace, as the turn recorded it (written in batches: flushed before reading).
    await flushTraces(world.stack);
    await page.getByRole('button', { name: 'Open “Where is my parcel?”' }).click();
    await page.getByRole('heading', { name: 'Conversation: Where is my parcel?' }).waitFor();
    await page.getByText(/^Trace \(\d+ steps\)$/).click();
    const recorded = page.getByRole('list', { name: 'Steps of this answer, on a time axis' });
    await recorded.getByText('chat.turn', { exact: true }).waitFor();
    await recorded.getByText('Provider:').first().waitFor();
    await recorded.getByText('Tokens in:').first().waitFor();

    // A recorded trace, as the traces area's reader gives it, drawn as a tree: nested spans with durations and GenAI attributes.
    const t0 = Date.parse('2026-01-05T10:00:00.000Z');
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const trace = {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spans: [
        { spanId: 'a1', parentSpanId: null, name: 'chat.turn', startTime: at(0), durationMs: 1200, status: 'ok', attributes: {} },
        { spanId: 'b2', parentSpanId: 'a1', name: 'retrieval', startTime: at(10), durationMs: 90, status: 'ok', attributes: { 'app.retrieval.hit_count': 3, 'app.retrieval.hits.file_name': ['parcels.md', 'parcels.md', 'returns.md'] } },
        { spanId: 'c3', parentSpanId: 'a1', name: 'chat gpt-4o-mini', startTime: at(110), durationMs: 800, status: 'ok', attributes: { 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 42, 'gen_ai.usage.output_tokens': 17 } },
        { spanId: 'd4', parentSpanId: 'a1', name: 'execute_tool track_parcel', startTime: at(920), durationMs: 250, status: 'error', statusMessage: 'The tool timed out', attributes: { 'gen_ai.tool.name': 'track_parcel' } },
      ],
    };
    await page.route(/\/api\/applications\/[^/]+\/logs\/[^/?]+$/, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.messages = body.messages.map((m: { role: string }) => (m.role === 'assistant' ? { ...m, trace } : m));
      await route.fulfill({ response, json: body });
    });
    await page.reload();
    await page.getByText('Trace (4 steps)').click();
    const tree = page.getByRole('list', { name: 'Steps of this answer, on a time axis' });
    for (const step of ['chat.turn', 'retrieval', 'chat gpt-4o-mini', 'execute_tool track_parcel', '1.20 s', '800 ms', '250 ms', 'Model: gpt-4o-mini', 'Tokens in: 42', 'Tokens out: 17', 'Tool: track_parcel', 'Failed: The tool timed out', 'Passages found: 3', 'From: parcels.md, returns.md']) {
      await tree.getByText(step, { exact: true }).first().waitFor();
    }
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Hide the steps inside chat.turn' }).click();
    await tree.getByText('Passages found: 3').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Show the steps inside chat.turn' }).waitFor();
    await page.unroute(/\/api\/applications\/[^/]+\/logs\/[^/?]+$/);
    await page.getByRole('button', { name: 'Annotate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Annotate this answer' });
    expect(await dialog.getByLabel('Question').inputValue()).toBe('Where is my parcel?');
    await dialog.getByLabel('Better answer').fill('Track it from the link in your shipping e-mail.');
    await dialog.getByRole('button', { name: 'Save annotation' }).click();
    await page.getByRole('status').filter({ hasText: 'Annotated' }).waitFor();

    // The Annotations screen, under the logs on the same tab.
    const row = page.getByRole('row', { name: /Track it from the link/ });
    await row.getByText('Corrected').waitFor();
    await page.getByLabel('Answer close questions with the annotated answer, without the model').check();
    await page.getByLabel('How close a question must be').fill('0.8');
    await page.getByRole('button', { name: 'Save replies settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const settings = await world.stack.client.get(`/api/applications/${owner.app.id}/annotations/settings`, { token: owner.token });
    expect(settings.body).toEqual({ repliesEnabled: true, threshold: 0.8 });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toMatch(/annotations\.csv$/);
    expect(csv).toContain('corrected,Where is my parcel?,Track it from the link in your shipping e-mail.');

    // The annotation goes into a test set of the Evaluate tab in one step.
    const dataset = await world.stack.client.post(`/api/applications/${owner.app.id}/datasets`, { name: 'Parcels' }, { token: owner.token });
    expect(dataset.status).toBe(201);
    await row.getByRole('button', { name: 'Add “Where is my parcel?” to a test set' }).click();
    const adding = page.getByRole('dialog', { name: 'Add to a test set' });
    await adding.getByLabel('Test set').selectOption(dataset.body.id);
    await adding.getByRole('button', { name: 'Add to the test set' }).click();
    await adding.getByRole('status').filter({ hasText: 'Added to “Parcels”.' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const items = await world.stack.client.get(`/api/applications/${owner.app.id}/datasets/${dataset.body.id}`, { token: owner.token });
    expect(items.body.items).toMatchObject([{ input: { message: 'Where is my parcel?' }, expected: 'Track it from the link in your shipping e-mail.', tags: ['annotation'] }]);
  });
});
