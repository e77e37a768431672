import { describeInBrowser } from '../browser/support/browser';
import { addMember } from '../e2e/teams/team-support';
import { registerUser } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/**
 * Webhooks and the audit log in Chromium: a webhook created with its secret shown once, a test ping the
 * receiver refuses (logged with its attempt), retried from the log once the receiver accepts, the secret
 * rotated, and the audit log filtered to that rotation.
 */
describeInBrowser('console: webhooks and audit', () => {
  let world: ConsoleStack;
  let receiver: WebhookReceiver;
  let tab: ConsolePage;

  beforeAll(async () => {
    [world, receiver] = await Promise.all([
      startConsoleStack({ env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } }),
      WebhookReceiver.start(),
    ]);
    tab = await world.open();
  });
  afterAll(async () => {
    await closeCheckedTab(tab);
    await receiver?.close();
    await world?.close();
  });

  it('creates a webhook (secret once), logs a failed ping, retries it to success, rotates the secret, and finds it in the audit log', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client, { displayName: 'Wes Hooks' });
    await signIn(page, world.url, user);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add a webhook' }).click();
    const create = page.getByRole('dialog', { name: 'Add a webhook' });
    await create.getByLabel('Endpoint URL').fill(receiver.url);
    await create.getByLabel('Description').fill(xssPayload('hook'));
    await create.getByLabel('message.completed').uncheck();
    await create.getByRole('button', { name: 'Add a webhook' }).click();
    await create.getByText('Choose at least one event').waitFor();
    await create.getByLabel('conversation.started').check();
    await create.getByRole('button', { name: 'Add a webhook' }).click();
    const shown = page.getByRole('dialog', { name: 'Webhook added' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await axeViolations(page)).toEqual([]);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('row', { name: new RegExp(receiver.url.replace(/[.:/]/g, '\\$&')) }).getByText('conversation.started').waitFor();
    expect(await page.content()).not.toContain(secret.slice(6));
    await screenshot(page, 'webhooks-list');

    // A test ping the receiver refuses: attempt 1 failed with its status, the delivery waiting to retry.
    let accept = false;
    receiver.respond = () => (accept ? 204 : 500);
    await page.getByRole('link', { name: `Open the webhook ${receiver.url}` }).click();
    await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();
    await page.getByRole('button', { name: 'Send a test ping' }).click();
    const log = page.getByRole('region', { name: 'Delivery log' });
    const failed = log.getByRole('row', { name: /webhook\.test.*Failed/ });
    await failed.getByText('500', { exact: true }).waitFor();
    await failed.getByText('Waiting to retry').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The receiver accepts now: retried from the log, the new attempt succeeds, the same message both times.
    accept = true;
    await log.getByRole('button', { name: /^Retry now: webhook\.test/ }).first().click();
    await log.getByRole('row', { name: /webhook\.test.*Succeeded/ }).getByText('Delivered').waitFor();
    await screenshot(page, 'webhooks-deliveries');
    const verified = receiver.verified(secret);
    expect(verified.length).toBeGreaterThanOrEqual(2);
    expect(new Set(verified.map((e) => e.type))).toEqual(new Set(['webhook.test']));
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);

    // Rotate: the new secret once, unlike the old.
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    const next = await rotated.getByLabel('Signing secret').inputValue();
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    await rotated.getByRole('button', { name: 'I have copied it' }).click();

    // The audit log, filtered to the rotation; details are text.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('row', { name: /webhook\.create/ }).first().waitFor();
    await page.getByLabel('Action').fill('webhook.rotate_secret');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('action') === 'webhook.rotate_secret');
    await page.getByRole('row', { name: /webhook\.rotate_secret/ }).waitFor();
    await page.getByRole('row', { name: /webhook\.create/ }).waitFor({ state: 'detached' });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'audit-log');
    await page.getByLabel('Action').fill('no.such_action');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('heading', { name: 'No records' }).waitFor();
  });

  it("shows a team Viewer the webhook of the team's application with its actions disabled; the API refuses them when forced", async () => {
    const client = world.stack.client;
    const [owner, viewer] = await Promise.all([registerUser(client), registerUser(client)]);
    const team = (await client.post('/api/teams', { name: 'Dock Crew' }, { token: owner.access_token })).body as { id: string };
    const app = (await client.post('/api/applications', { name: 'Dock Desk' }, { token: owner.access_token })).body as { id: string };
    expect((await client.post(`/api/applications/${app.id}/transfer`, { teamId: team.id }, { token: owner.access_token })).status).toBe(200);
    await addMember(world.stack, team.id, { ...owner, token: owner.access_token }, { ...viewer, token: viewer.access_token }, 'viewer');
    const hook = await client.post('/api/webhooks', { url: receiver.url, events: ['message.completed'], applicationId: app.id, description: 'Dock events' }, { token: owner.access_token });
    expect(hook.status).toBe(201);

    const guest = await world.open();
    await signIn(guest.page, world.url, viewer);
    await guest.goto(`/webhooks/${hook.body.id}`);
    await guest.page.getByText('Your role in this application’s team (viewer) cannot manage its webhooks').waitFor();
    for (const name of ['Send a test ping', 'Rotate the secret', 'Delete the webhook', 'Save']) expect(await guest.page.getByRole('button', { name }).isDisabled()).toBe(true);
    expect(await guest.page.getByLabel('Endpoint URL').isDisabled()).toBe(true);
    // The page reads the one webhook (GET /api/webhooks/:id), which a team member may, not the first page of the list.
    expect(guest.requestUrls.some((u) => u.endsWith(`/api/webhooks/${hook.body.id}`))).toBe(true);
    expect((await client.get(`/api/webhooks/${hook.body.id}`, { token: viewer.access_token })).body).toMatchObject({ id: hook.body.id, description: 'Dock events' });
    expect(await axeViolations(guest.page)).toEqual([]);
    await screenshot(guest.page, 'webhooks-viewer');
    expect((await client.post(`/api/webhooks/${hook.body.id}/test`, {}, { token: viewer.access_token })).status).toBe(403);
    expect((await client.post(`/api/webhooks/${hook.body.id}/rotate-secret`, {}, { token: viewer.access_token })).status).toBe(403);
    await guest.goto('/webhooks/00000000-0000-4000-8000-000000000000');
    await guest.page.getByText('This webhook does not exist, or it is not yours.').waitFor();
    await closeCheckedTab(guest);
  });
});
