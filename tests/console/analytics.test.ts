import { describeInBrowser } from '../browser/support/browser';
import { userWithApplication } from '../support/test-stack';
import { waitFor } from '../support/wait-for';
import { axeViolations, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Analytics in Chromium: overview, usage by day, provider and source, costs with own keys apart, as SVG bars and tables. */
describeInBrowser('console: analytics', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    world = await startConsoleStack({ env: { ANALYTICS_FLUSH_MS: '200' } });
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('shows the empty state for an account without usage', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client);
    await signIn(page, world.url, user);
    await tab.goto('/analytics');
    await page.getByRole('heading', { name: 'No usage in this period' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'analytics-empty');
  });

  it('charts real chats with the figures in tables, own-key costs apart from platform-key costs', async () => {
    const { page } = tab;
    const { client } = world.stack;
    const user = await userWithApplication(client);
    await world.stack.setPlan(user.user.id, 'pro');
    expect((await client.put('/api/provider-keys/provider_b', { apiKey: 'sk-ant-own-analytics-1234' }, { token: user.token })).status).toBeLessThan(300);
    const conversation = (await client.post('/api/conversations', { applicationId: user.app.id }, { token: user.token })).body.id as string;
    for (const provider of ['provider_a', 'provider_a', 'provider_b']) {
      const sent = await client.post(`/api/conversations/${conversation}/messages`, { content: 'How are orders returned?', provider }, { token: user.token });
      expect([provider, sent.status]).toEqual([provider, 200]);
    }
    let overview: { totals: { messages: number; totalTokens: number } } | undefined;
    await waitFor(async () => {
      overview = (await client.get('/api/analytics/overview', { token: user.token })).body;
      return (overview?.totals.messages ?? 0) >= 6;
    }, 15_000);
    const costs = (await client.get('/api/analytics/costs', { token: user.token })).body;

    await signIn(page, world.url, user);
    await tab.goto('/analytics');
    const summary = page.getByRole('region', { name: 'Overview' });
    await summary.getByText('Conversations').waitFor();
    expect(await summary.locator('.ap-figure', { hasText: 'Messages' }).locator('dd').textContent()).toBe(String(overview!.totals.messages));
    expect(await summary.locator('.ap-figure', { hasText: 'Tokens' }).locator('dd').textContent()).toBe(overview!.totals.totalTokens.toLocaleString('en'));

    const byProvider = page.getByRole('region', { name: 'Tokens by provider' });
    await byProvider.getByRole('rowheader', { name: 'OpenAI' }).waitFor();
    await byProvider.getByRole('rowheader', { name: 'Anthropic' }).waitFor();
    expect(await byProvider.locator('svg.ap-chart__track').count()).toBe(2);
    const bySource = page.getByRole('region', { name: 'Messages by source' });
    await bySource.getByRole('rowheader', { name: 'Console' }).waitFor();
    await page.getByRole('region', { name: 'Messages by day' }).getByRole('table').waitFor();

    const costSection = page.getByRole('region', { name: 'Estimated costs' });
    const modelRows = costSection.getByRole('table', { name: 'Cost by model' }).locator('tbody tr');
    expect(await modelRows.count()).toBe(costs.byModel.length);
    expect(await costSection.getByRole('table', { name: 'Cost by model' }).getByRole('cell', { name: 'Own keys' }).count()).toBeGreaterThan(0);
    expect(await costSection.getByRole('table', { name: 'Cost by model' }).getByRole('cell', { name: 'Platform keys' }).count()).toBeGreaterThan(0);
    expect(costs.totals.ownKeyCostUsd).toBeGreaterThan(0);
    expect(costs.totals.platformKeyCostUsd).toBeGreaterThan(0);

    expect(await page.locator('[style]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'analytics');
  });

  it('shows the error state with a retry when the figures cannot load', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client);
    await signIn(page, world.url, user);
    await page.route('**/api/analytics/overview?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, message: 'Analytics are resting', error: 'Service Unavailable' }) }));
    await tab.goto('/analytics');
    await page.getByRole('alert').getByText('Analytics are resting').waitFor({ timeout: 20_000 });
    await page.unroute('**/api/analytics/overview?*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No usage in this period' }).waitFor();
  });
});
