import { describeInBrowser } from '../browser/support/browser';
import { registerUser } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Provider keys in Chromium: saved, validated by the (emulated) provider, refused on a wrong prefix, deleted. */
describeInBrowser('console: provider keys', () => {
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

  it('saves a key showing only its last four characters, validates it with the provider, and deletes it after confirmation', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await tab.goto('/provider-keys');
    const openai = page.getByRole('region', { name: 'OpenAI' });
    await openai.getByText('No key saved').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const rawKey = 'sk-own-console-key-7Qa1';
    await openai.getByLabel('OpenAI API key').fill(rawKey);
    await openai.getByRole('button', { name: 'Save key' }).click();
    await openai.getByText('Key ending in 7Qa1').waitFor();
    await expect(openai.getByLabel('OpenAI API key').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain(rawKey);

    await openai.getByRole('button', { name: 'Validate' }).click();
    await openai.getByText(/The provider accepted the key \(\d+ models available\)/).waitFor();
    await openai.getByText(/Last validated/).waitFor();
    expect(world.stack.emulator!.requests.some((r) => r.provider === 'provider_a' && r.apiKey === rawKey)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'provider-keys');

    // A key the provider refuses: the provider's reason, with the key masked.
    await openai.getByLabel('OpenAI API key').fill('sk-rejected-console-9Zz9');
    await openai.getByRole('button', { name: 'Replace key' }).click();
    await openai.getByText('Key ending in 9Zz9').waitFor();
    await openai.getByRole('button', { name: 'Validate' }).click();
    const refusal = openai.getByText(/The provider refused the key/);
    await refusal.waitFor();
    expect(await refusal.textContent()).not.toContain('sk-rejected-console-9Zz9');

    await openai.getByRole('button', { name: 'Delete the OpenAI key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete your OpenAI key?' });
    await confirm.getByRole('button', { name: 'Delete key' }).click();
    await openai.getByText('No key saved').waitFor();
  });

  it('shows the server’s prefix hint on the field when a key is saved under the wrong provider, keeping nothing', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await tab.goto('/provider-keys');
    const openai = page.getByRole('region', { name: 'OpenAI' });
    await openai.getByLabel('OpenAI API key').fill('sk-ant-api03-this-is-anthropic-0000');
    await openai.getByRole('button', { name: 'Save key' }).click();
    const error = openai.locator('.ap-field__error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/must start with "sk-"; this one starts with "sk-ant-".*provider_b/);
    await openai.getByText('No key saved').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'provider-keys-wrong-prefix');
    const listed = await world.stack.client.get('/api/provider-keys', { token: user.access_token });
    expect(listed.body).toEqual([]);
  });
});
