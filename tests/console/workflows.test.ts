import { describeInBrowser } from '../browser/support/browser';
import { addMember, makeTeam } from '../support/sso-teams';
import { paidUserWithApplication, registerUser } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/**
 * Workflows in Chromium: the step graph beside its JSON, the API's refusal shown on its step, a run with an
 * input whose failing step shows its error and retries on the live timeline, pause, a queued run cancelled,
 * resume, and the templates gallery's deploy.
 */
describeInBrowser('console: workflows and templates', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    // An http step may call 127.0.0.2 (nothing listens on its port 1: the step fails, retried).
    world = await startConsoleStack({ env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.2/32' } });
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('edits the graph, shows a refused step on the graph, runs with an input and shows the failing step on the timeline', async () => {
    const { page } = tab;
    const user = await paidUserWithApplication(world.stack, 'pro', { name: 'Flows' });
    await signIn(page, world.url, user);
    await tab.goto(`/workflows?app=${user.app.id}`);
    await page.getByRole('heading', { name: 'No workflows yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflows-empty');

    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByRole('heading', { name: 'New workflow' }).waitFor();
    // The graph loads lazily with the default step; adding a step shows it on the graph and in the JSON.
    await page.locator('.wf-node[data-step="greet"]').waitFor();
    await page.getByLabel('Kind of the new step').selectOption('wait');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.locator('.wf-node[data-step="wait2"]').waitFor();
    expect(await page.getByLabel('Steps as JSON').inputValue()).toContain('"id": "wait2"');

    const steps = [
      { id: 'greet', kind: 'template', text: 'Hello {{input.name}}' },
      { id: 'call', kind: 'http', method: 'GET', url: 'http://127.0.0.2:1/closed', retry: { attempts: 2, backoffMs: 10 } },
    ];
    await page.getByLabel('Steps as JSON').fill(JSON.stringify(steps, null, 2));
    await page.locator('.wf-node[data-step="wait2"]').waitFor({ state: 'detached' });
    await page.getByLabel('Name', { exact: true }).fill('Greeter');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    // The API names the step: its message sits on the step in the graph and in the list below.
    const refusal = 'host 127.0.0.2 is not in allowedHosts';
    await page.locator('.wf-node[data-step="call"]', { hasText: refusal }).waitFor();
    await page.getByRole('alert').filter({ hasText: `call: step "call": ${refusal}` }).waitFor();
    expect(await page.locator('.wf-node[data-step="greet"] .wf-node__error').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflows-editor');

    await page.getByLabel('Allowed hosts').fill('127.0.0.2');
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.getByRole('heading', { name: 'Greeter', level: 1 }).waitFor();

    const payload = xssPayload('wf-input');
    await page.getByLabel('Input (JSON)').fill(JSON.stringify({ name: payload }));
    await page.getByRole('button', { name: 'Run workflow' }).click();
    const timeline = page.getByRole('list', { name: /^Run / });
    const failed = timeline.getByRole('listitem').filter({ hasText: 'call' });
    await failed.getByText('2 attempts (1 retry)').waitFor({ timeout: 20_000 });
    await failed.locator('.wf-error').waitFor();
    expect(await failed.getByText('Failed', { exact: true }).count()).toBe(1);
    const greet = timeline.getByRole('listitem').filter({ hasText: 'greet' });
    await greet.getByText('Output').click();
    // The step's output (the hostile input) is text in a <pre>, never markup.
    await greet.locator('pre', { hasText: 'Hello <img src=x onerror=' }).waitFor();
    expect(await page.locator('.wf-run img').count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'Failed' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflows-run');
  });

  it('pauses (a run waits queued), cancels the queued run, resumes; deploys a template from the gallery', async () => {
    const { page } = tab;
    const { client } = world.stack;
    const user = await paidUserWithApplication(world.stack, 'pro', { name: 'Paused flows' });
    const created = await client.post('/api/workflows', { applicationId: user.app.id, name: 'Nightly', steps: [{ id: 'hello', kind: 'template', text: 'hi' }] }, { token: user.token });
    expect(created.status).toBe(201);
    await signIn(page, world.url, user);
    await tab.goto(`/workflows/${created.body.id}`);
    await page.getByRole('heading', { name: 'Nightly', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused: new runs are queued until you resume.').waitFor();
    await page.getByRole('button', { name: 'Run workflow' }).click();
    await page.getByRole('status').filter({ hasText: 'Queued' }).waitFor();
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    await tab.goto('/workflows/templates');
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflows-templates');
    await page.getByRole('button', { name: /^Deploy / }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Application name').fill('From a template');
    await dialog.getByRole('button', { name: 'Deploy' }).click();
    await dialog.getByText('Deployed “From a template”.').waitFor();
    await dialog.getByRole('link', { name: 'Open its workflows' }).click();
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    expect(await page.getByLabel('Application').locator('option:checked').textContent()).toBe('From a template');
  });

  it('shows the 402 of a template the plan cannot deploy as the API says it, with no way to a billing this install does not have', async () => {
    const { page } = tab;
    const user = await paidUserWithApplication(world.stack, 'pro');
    await signIn(page, world.url, user);
    await page.route('**/api/templates/*/deploy', (route) =>
      route.fulfill({ status: 402, contentType: 'application/json', body: JSON.stringify({ statusCode: 402, error: 'Payment Required', message: 'Your plan allows 1 application.' }) }),
    );
    await tab.goto('/workflows/templates');
    await page.getByRole('button', { name: /^Deploy / }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
    const alert = page.getByRole('dialog').getByRole('alert');
    await alert.getByText(/Your plan allows 1 application\./).waitFor();
    // Payments are not configured on this stack: no link to plans that cannot be bought (billing.test.ts has them).
    expect(await alert.getByRole('link', { name: 'See plans and billing' }).count()).toBe(0);
  });

  it('shows a team Viewer the workflow with its actions disabled and the reason; the API refuses them (403)', async () => {
    const { page } = tab;
    const { client } = world.stack;
    const owner = await paidUserWithApplication(world.stack, 'pro', { name: 'Team flows' });
    const team = await makeTeam(world.stack, owner.user.id);
    expect((await client.post(`/api/applications/${owner.app.id}/transfer`, { teamId: team.id }, { token: owner.token })).status).toBe(200);
    const viewer = await registerUser(client);
    await addMember(world.stack, team.id, viewer.user.id, 'viewer');
    const wf = await client.post('/api/workflows', { applicationId: owner.app.id, name: 'Shared', steps: [{ id: 'hello', kind: 'template', text: 'hi' }] }, { token: owner.token });
    expect(wf.status).toBe(201);

    await signIn(page, world.url, viewer);
    await tab.goto(`/workflows/${wf.body.id}`);
    await page.getByRole('heading', { name: 'Shared', level: 1 }).waitFor();
    await page.getByText(/Your role in this application’s team is Viewer/).waitFor();
    for (const name of ['Pause', 'Delete workflow', 'Run workflow', 'Save workflow', 'Add step']) expect([name, await page.getByRole('button', { name }).isDisabled()]).toEqual([name, true]);
    expect((await client.post(`/api/workflows/${wf.body.id}/trigger`, { input: {} }, { token: viewer.access_token })).status).toBe(403);
  });
});
