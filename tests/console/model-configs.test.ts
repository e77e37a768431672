import { describeInBrowser } from '../browser/support/browser';
import { userWithApplication } from '../support/test-stack';
import { waitFor } from '../support/wait-for';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Model configs and A/B versions in Chromium: the API's 400 on its field, the default, traffic shares, metrics per arm. */
describeInBrowser('console: model configs', () => {
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

  it('creates configs (the API’s 400 on the field), switches the default, and compares an A/B version with the control', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Gadget Shop' });
    const { client } = world.stack;
    await client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-console-configs-1234' }, { token: owner.token });
    await signIn(page, world.url, owner);
    await tab.goto('/model-configs');
    await page.getByRole('heading', { name: 'No model configs yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New config' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a model config' });
    const hostile = xssPayload('configname');
    await dialog.getByLabel('Name').fill(hostile);
    await dialog.getByLabel('Provider').selectOption('provider_a');
    await dialog.getByLabel('Model').selectOption('gpt-4o');
    // The ranges are shown before a save, not only in its refusal (gpt-4o answers at most 16,384 tokens).
    await dialog.getByText('From 0 to 2; empty for the default.').waitFor();
    await dialog.getByText('From 1 to 16384; empty for the default.').waitFor();
    await dialog.getByText('From 0 to 1; empty for the default.').waitFor();
    await dialog.getByLabel('Temperature').fill('2.5');
    await dialog.getByLabel('Max tokens (limit per answer)').fill('500');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const error = dialog.locator('.ap-field__error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/temperature/i);
    expect(await dialog.getByLabel('Temperature').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Name').inputValue()).toBe(hostile); // what was typed is kept
    await dialog.getByLabel('Temperature').fill('0.4');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const first = page.getByRole('row', { name: /configname/ });
    await first.getByText('default').waitFor();
    expect(await first.textContent()).toContain('gpt-4o');
    expect(await first.textContent()).toContain('temperature 0.4 · max 500 tokens');

    await page.getByRole('button', { name: 'New config' }).click();
    await dialog.getByLabel('Name').fill('Backup');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const backup = page.getByRole('row', { name: /Backup/ });
    await backup.waitFor();
    await page.getByRole('button', { name: 'Make Backup the default' }).click();
    await backup.getByText('default').waitFor();
    await first.getByText('default').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Make ' + hostile + ' the default' }).click();
    await first.getByText('default').waitFor();

    // A/B: a version taking 100% of the default config's traffic answers the next conversation.
    await page.getByRole('link', { name: `A/B versions of ${hostile}` }).click();
    await page.getByRole('heading', { name: 'No versions yet' }).waitFor();
    await page.getByLabel('Label').fill('Cooler');
    await page.getByLabel('Traffic %').fill('150');
    await page.getByRole('button', { name: 'Add version' }).click();
    await page.locator('.ap-field__error').first().waitFor();
    await page.getByLabel('Traffic %').fill('100');
    await page.getByLabel('Temperature').fill('0.1');
    await page.getByRole('button', { name: 'Add version' }).click();
    await page.getByRole('row', { name: /Cooler/ }).first().waitFor();

    const conversation = await client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    const answered = await client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Hello' }, { token: owner.token });
    expect(answered.status).toBe(200);
    await page.reload();
    const metrics = page.getByRole('table', { name: 'Metrics by arm' });
    const armRow = metrics.getByRole('row', { name: /^Cooler/ });
    await armRow.waitFor();
    expect((await armRow.locator('td').allTextContents()).slice(0, 2)).toEqual(['100%', '1']);
    // The control answered nothing: its figures are "No data", never 0 ms, 0 % errors or a rating.
    expect(await metrics.getByRole('row', { name: /\(control\)/ }).locator('td').allTextContents()).toEqual(['0%', '0', 'No data', 'No data', 'No data', 'No data']);
    const cooler = await armRow.locator('td').allTextContents();
    expect(cooler.slice(2)).toEqual([expect.stringMatching(/^\d+ ms$/), expect.stringMatching(/^\d+$/), '0%', 'No data']);
    expect(await page.getByRole('img', { name: /^Requests: .*\(control\) 0, Cooler 1$/ }).count()).toBe(1);
    expect(await page.getByRole('img', { name: /^Average latency \(ms\): .*\(control\) No data, Cooler \d+ ms$/ }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'model-configs-ab');

    // Halve the version's share: the control takes the rest.
    await page.getByLabel('Traffic % of Cooler').fill('40');
    await page.getByRole('button', { name: 'Save the traffic of Cooler' }).click();
    await metrics.getByRole('row', { name: /\(control\)/ }).getByText('60%').waitFor();

    await page.getByRole('button', { name: 'Delete version Cooler' }).click();
    await page.getByRole('dialog', { name: 'Delete version Cooler?' }).getByRole('button', { name: 'Delete version' }).click();
    await page.getByRole('heading', { name: 'No versions yet' }).waitFor();
    await page.getByRole('link', { name: 'All model configs' }).click();
    await page.getByRole('row', { name: /Backup/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'model-configs');
  });

  it('sets up an A/B test, shows each arm’s estimate with its range and the decision, and promotes the winner', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Tea Shop' });
    const { client } = world.stack;
    const token = owner.token;
    await client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-console-abtest-1234' }, { token });
    const config = (await client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Calm', provider: 'provider_a', modelId: 'gpt-4o-mini' }, { token })).body;
    const version = (await client.post(`/api/model-configs/${config._id}/versions`, { label: 'Warm', settings: { temperature: 0.9 }, trafficPercent: 0 }, { token })).body;
    await signIn(page, world.url, owner);
    await tab.goto(`/model-configs/${config._id}`);
    const section = page.getByRole('region', { name: 'A/B test' });
    await section.getByRole('heading', { name: 'No A/B test yet' }).waitFor();
    await section.getByLabel('Goal').selectOption({ label: 'Average rating (1 to 5 stars)' });
    await section.getByLabel('Smallest difference worth detecting').fill('-1');
    await section.getByRole('button', { name: 'Start the test' }).click();
    await section.locator('.ap-field__error').waitFor();
    expect(await section.getByLabel('Smallest difference worth detecting').getAttribute('aria-invalid')).toBe('true');
    await section.getByLabel('Smallest difference worth detecting').fill('0.5');
    await section.getByLabel('Accepted chance of a wrong decision').selectOption({ label: '1 in 20' });
    await section.getByLabel('Switch off a version at once if its error rate is clearly higher').check();
    await section.getByRole('button', { name: 'Start the test' }).click();
    await section.getByText(/^Still collecting answers\. A difference of the size you chose is usually clear after about \d+ per arm\.$/).waitFor();
    expect(await section.getByLabel('Promote the winner automatically').isChecked()).toBe(false);

    // Ratings through the API: the control's answers rated 2 and 3, then the version's rated 4 and 5.
    const rated = async (ratings: number[]) => {
      const conversation = (await client.post('/api/conversations', { applicationId: owner.app.id }, { token })).body.id;
      for (const rating of ratings) {
        const answer = await client.post(`/api/conversations/${conversation}/messages`, { content: 'Which tea is calming?' }, { token });
        expect((await client.post(`/api/conversations/${conversation}/messages/${answer.body.message.id}/rating`, { rating }, { token })).status).toBe(200);
      }
    };
    await rated(Array.from({ length: 20 }, (_, i) => (i % 2 ? 3 : 2)));
    await client.put(`/api/model-configs/${config._id}/versions/${version._id}`, { trafficPercent: 100 }, { token });
    await rated(Array.from({ length: 20 }, (_, i) => (i % 2 ? 5 : 4)));

    // Scoring runs off the turns' path: the page is read once the test has decided.
    await waitFor(async () => (await client.get(`/api/model-configs/${config._id}/experiment`, { token })).body.decision === 'winner', 30_000);
    await page.reload();
    await section.getByText('Winner: Warm').waitFor();
    const arms = section.getByRole('table', { name: 'Arms of the A/B test' });
    expect(await arms.getByRole('row', { name: /^Calm \(control\)/ }).locator('td').allTextContents()).toEqual(['20', expect.stringMatching(/^2\.50 \(\d\.\d\d to \d\.\d\d\)$/), 'Baseline', 'Baseline']);
    expect(await arms.getByRole('row', { name: /^Warm/ }).locator('td').allTextContents()).toEqual(['20', expect.stringMatching(/^4\.50 /), expect.stringMatching(/^\+2\.00 \(\+\d\.\d\d to \+\d\.\d\d\)$/), 'Better']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'model-configs-ab-test');

    await section.getByRole('button', { name: 'Promote Warm' }).click();
    await section.getByText('Warm was promoted and now answers every new conversation.').waitFor();
    expect((await client.get(`/api/model-configs/${config._id}`, { token })).body.settings.temperature).toBe(0.9);
  });

  it('sets up an A/B test scored by an evaluator on sampled answers, and shows the scored answers per arm', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Tea Shop' });
    const { client } = world.stack;
    const token = owner.token;
    await client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-console-abscore-1234' }, { token });
    const config = (await client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Brief', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { systemPrompt: 'Be brief.' } }, { token })).body;
    const version = (await client.post(`/api/model-configs/${config._id}/versions`, { label: 'Warm', settings: { systemPrompt: 'Be warm.' }, trafficPercent: 0 }, { token })).body;
    expect(version._id).toEqual(expect.any(String));
    await signIn(page, world.url, owner);
    await tab.goto(`/model-configs/${config._id}`);
    const section = page.getByRole('region', { name: 'A/B test' });
    await section.getByRole('heading', { name: 'No A/B test yet' }).waitFor();
    await section.getByLabel('Goal').selectOption({ label: 'Evaluator score on sampled answers' });
    await section.getByText('This application keeps no evaluator yet: keep one below to score live answers.').waitFor();
    // Keeping an evaluator without words is the API's 400, shown on its field.
    await section.getByLabel('Name of the evaluator').fill('Warmth');
    await section.getByRole('button', { name: 'Keep the evaluator' }).click();
    await section.getByRole('group', { name: 'Keep an evaluator' }).locator('.ap-field__error').waitFor();
    await section.getByLabel('Words a good answer holds').fill('warm, kind');
    await section.getByRole('button', { name: 'Keep the evaluator' }).click();
    await section.getByRole('option', { name: 'Warmth' }).waitFor({ state: 'attached' });
    expect(await section.getByLabel('Evaluator', { exact: true }).inputValue()).toEqual(expect.any(String));
    await section.getByLabel('Share of answers scored').fill('2');
    await section.getByRole('button', { name: 'Start the test' }).click();
    await section.getByRole('alert').filter({ hasText: 'Sample rate must be more than 0 and at most 1' }).waitFor();
    expect(await section.getByLabel('Share of answers scored').getAttribute('aria-invalid')).toBe('true');
    await section.getByLabel('Share of answers scored').fill('1');
    await section.getByLabel('Answers scored per hour at most').fill('500');
    await section.getByLabel('Smallest difference worth detecting').fill('0.2');
    await section.getByRole('button', { name: 'Start the test' }).click();
    await section.getByText('Scoring 100% of the answers with Warmth, at most 500 an hour.').waitFor();

    const answers = async (n: number) => {
      const conversation = (await client.post('/api/conversations', { applicationId: owner.app.id }, { token })).body.id;
      for (let i = 0; i < n; i++) expect((await client.post(`/api/conversations/${conversation}/messages`, { content: 'Which tea is calming?' }, { token })).status).toBe(200);
    };
    await answers(20);
    await client.put(`/api/model-configs/${config._id}/versions/${version._id}`, { trafficPercent: 100 }, { token });
    await answers(20);

    // Scoring runs off the turns' path: the page is read once the test has decided.
    await waitFor(async () => (await client.get(`/api/model-configs/${config._id}/experiment`, { token })).body.decision === 'winner', 30_000);
    await page.reload();
    await section.getByText('Winner: Warm').waitFor();
    const arms = section.getByRole('table', { name: 'Arms of the A/B test' });
    await arms.getByRole('columnheader', { name: 'Scored answers' }).waitFor();
    // "warm" of "warm, kind": the challenger's answers hold one of the two words, the control's none.
    expect(await arms.getByRole('row', { name: /^Brief \(control\)/ }).locator('td').allTextContents()).toEqual(['20', expect.stringMatching(/^0\.0% /), 'Baseline', 'Baseline']);
    expect(await arms.getByRole('row', { name: /^Warm/ }).locator('td').allTextContents()).toEqual(['20', expect.stringMatching(/^50\.0% /), expect.stringMatching(/^\+50\.0% /), 'Better']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'model-configs-ab-test-evaluator');
  });

  it('saves retries, models sharing the load and an ordered fallback list with a config (the API’s 400 on the retry field)', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Resilient Shop' });
    await signIn(page, world.url, owner);
    await tab.goto('/model-configs');
    await page.getByRole('button', { name: 'New config' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a model config' });
    await dialog.getByLabel('Name').fill('Survives a bad day');
    await dialog.getByLabel('Provider').selectOption('provider_a');
    await dialog.getByLabel('Model').selectOption('gpt-4o');
    await dialog.getByRole('group', { name: 'When the model fails' }).waitFor();
    await dialog.getByLabel('Retries').fill('9');
    await dialog.getByLabel('Share the load with').fill('provider_a/gpt-4o-mini');
    await dialog.getByLabel('Fallbacks, in order').fill('provider_b/claude-3-5-haiku-latest\nprovider_d/meta-llama/Llama-3.1-8B-Instruct');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.locator('.ap-field__error').first().waitFor();
    expect(await dialog.getByLabel('Retries').getAttribute('aria-invalid')).toBe('true');
    // The refusal lands on the retry field alone.
    expect(await dialog.locator('.ap-field__error').allTextContents()).toEqual([expect.stringMatching(/Max retries must be/)]);
    await dialog.getByLabel('Retries').fill('2');
    await dialog.getByLabel('First wait (milliseconds)').fill('250');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('row', { name: /Survives a bad day/ }).waitFor();
    const configs = await world.stack.client.get(`/api/model-configs?applicationId=${owner.app.id}`, { token: owner.token });
    const saved = configs.body.find((c: { name: string }) => c.name === 'Survives a bad day');
    expect(saved.settings.resilience).toEqual({
      retry: { maxRetries: 2, baseDelayMs: 250, maxDelayMs: 8000 },
      balance: [{ provider: 'provider_a', model: 'gpt-4o-mini' }],
      fallbacks: [
        { provider: 'provider_b', model: 'claude-3-5-haiku-latest' },
        { provider: 'provider_d', model: 'meta-llama/Llama-3.1-8B-Instruct' },
      ],
    });
    // Editing the config shows the saved list again.
    await page.getByRole('button', { name: 'Edit Survives a bad day' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the model config' });
    expect(await edit.getByLabel('Share the load with').inputValue()).toBe('provider_a/gpt-4o-mini');
  });

  it('shows another user’s (or a missing) config as not found, with a retry', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Owner' });
    const other = await userWithApplication(world.stack.client, { name: 'Other' });
    const theirs = await world.stack.client.post('/api/model-configs', { applicationId: other.app.id, name: 'Theirs', provider: 'provider_a' }, { token: other.token });
    expect(theirs.status).toBe(201);
    await signIn(page, world.url, owner);
    await tab.goto(`/model-configs/${theirs.body._id}`);
    const alert = page.getByRole('alert').filter({ hasText: 'Nothing here' });
    await alert.waitFor();
    await alert.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await page.content()).not.toContain('Theirs');
    expect(await axeViolations(page)).toEqual([]);
  });
});
