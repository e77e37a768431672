import { describeInBrowser } from '../browser/support/browser';
import { createKey } from '../e2e/public-api/public-api-support';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** API keys and embedding in Chromium: the raw key once, revoke, delete, the snippet and the sandboxed preview. */
describeInBrowser('console: API keys and embedding', () => {
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

  it('creates a key shown once with its rate limit, gives the snippet and a sandboxed live preview, then revokes and deletes it', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Harbour Help', allowedOrigins: ['https://harbour.example.com'] });
    await signIn(page, world.url, owner);
    await tab.goto(`/applications/${owner.app.id}/publish`);
    await page.getByRole('heading', { name: 'No API keys yet' }).waitFor();
    await page.getByText('https://harbour.example.com').waitFor();
    expect(await page.getByLabel('Widget snippet').inputValue()).toBe(
      `<script src="${world.url}/public/widget.js" data-app-id="${owner.app.id}" data-api-key="paste-a-key-of-this-application" async></script>`,
    );
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Name').fill('Website');
    await dialog.getByLabel('Rate limit (requests per minute)').fill('5');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.locator('.ap-field__error').getByText('Between 10 and 10,000.').waitFor();
    await dialog.getByLabel('Rate limit (requests per minute)').fill('120');
    await dialog.getByRole('button', { name: 'Create' }).click();

    const shown = page.getByRole('dialog', { name: 'Copy your new key now' });
    const raw = await shown.getByLabel('New API key').inputValue();
    expect(raw).toMatch(/^pk_live_[\w-]{43}$/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'api-keys-created');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    const row = page.getByRole('row', { name: /Website/ });
    await row.getByText('120/min').waitFor();
    expect(await row.textContent()).toContain(`pk_live_…${raw.slice(-4)}`);
    expect(await page.getByLabel('Widget snippet').inputValue()).toContain(`data-api-key="${raw}"`); // this page only, in memory

    // The preview: the real widget, in a frame with scripts but no access to the console.
    // (The Publish & embed tab also shows the branding's draft preview: this is the embed panel's.)
    const embed = page.getByRole('region', { name: 'Embed the chat widget' });
    const frame = embed.locator('iframe[title="Widget preview"]');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    await embed.frameLocator('iframe[title="Widget preview"]').locator('script[src$="/public/widget.js"]').waitFor({ state: 'attached' });
    await screenshot(page, 'api-keys-embed');

    // Gone after a reload: the platform keeps only its digest.
    await page.reload();
    await row.getByText('120/min').waitFor();
    expect(await page.content()).not.toContain(raw.slice(8, 30));
    expect(await page.getByLabel('Widget snippet').inputValue()).toContain('data-api-key="paste-a-key-of-this-application"');

    await page.getByRole('button', { name: 'Revoke Website' }).click();
    await page.getByRole('dialog', { name: 'Revoke “Website”?' }).getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();
    const refused = await fetch(`${world.url}/api/v1/chat`, { method: 'POST', headers: { 'X-API-Key': raw, 'Content-Type': 'application/json' }, body: JSON.stringify({ applicationId: owner.app.id, message: 'hi' }) });
    expect(refused.status).toBe(401);

    await page.getByRole('button', { name: 'Delete Website' }).click();
    await page.getByRole('dialog', { name: 'Delete “Website”?' }).getByRole('button', { name: 'Delete key' }).click();
    await page.getByRole('heading', { name: 'No API keys yet' }).waitFor();
  });

  it('previews the widget for real: with keys made earlier and no allowed origin, the sandboxed widget answers a message', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Lighthouse Desk' });
    await world.stack.setPlan(owner.user.id, 'pro');
    // Two keys exist, made before this visit: their raw values are long gone, and the preview needs neither.
    await createKey(world.stack.client, owner.token, { applicationId: owner.app.id, name: 'Website' });
    await createKey(world.stack.client, owner.token, { applicationId: owner.app.id, name: 'Intranet' });
    world.stack.emulator!.reset();
    world.stack.emulator!.behaviour.reply = 'The lighthouse keeper answers from the preview.';
    await signIn(page, world.url, owner);
    await tab.goto(`/api-keys?app=${owner.app.id}`);
    await page.getByText('No origin is allowed yet', { exact: false }).waitFor();
    await page.getByText('Chats through the key “Intranet”', { exact: false }).waitFor();
    expect(await page.getByText('Create a key for this application to preview the widget with it.').count()).toBe(0);

    // The embed panel's preview (Publish & embed also previews the theme beside the branding form).
    const embed = page.getByRole('region', { name: 'Embed the chat widget' });
    const frame = embed.locator('iframe[title="Widget preview"]');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const widget = embed.frameLocator('iframe[title="Widget preview"]');
    // Named after the application, not "Chat with Chat".
    await widget.getByRole('button', { name: 'Chat with Lighthouse Desk' }).click();
    await widget.getByRole('textbox', { name: 'Your message' }).fill('Is the lamp lit tonight?');
    await widget.getByRole('button', { name: 'Send' }).click();
    // The Send button itself (a sandbox without allow-forms fires no submit event).
    await widget.getByText('The lighthouse keeper answers from the preview.').waitFor();
    expect(await widget.getByText('This chat is not enabled', { exact: false }).count()).toBe(0);
    // It really chatted, through one of the application's keys, as widget traffic.
    const conversations = await world.stack.client.get(`/api/conversations?applicationId=${owner.app.id}`, { token: owner.token });
    expect(conversations.body.map((c: { title: string }) => c.title)).toEqual(['Is the lamp lit tonight?']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'api-keys-widget-preview');
  });
});
