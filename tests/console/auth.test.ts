import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeInBrowser } from '../browser/support/browser';
import { registerUser } from '../support/test-stack';
import { axeViolations, freshEmail, screenshot, signIn, signUp, startConsoleStack, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Access tokens of this file's platform live 2 seconds: expiry and the silent refresh are real. */
const TTL_SECONDS = 2;

/** Signing in, the session and the console's security in Chromium. */
describeInBrowser('console: sign-in, session and security', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    world = await startConsoleStack({ accessTokenTtlSeconds: TTL_SECONDS });
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('refuses a wrong password with the API’s message, then signs in and returns to the screen asked for, under a strict CSP', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    const response = await tab.goto('/provider-keys');
    const csp = response!.headers()['content-security-policy']!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/provider-keys');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText(/e-mail or password/i).waitFor();
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Provider keys' }).waitFor();
    expect(await page.evaluate(() => document.cookie)).toBe(''); // the refresh cookie is HttpOnly
  });

  it('refreshes an expired session silently, survives a reload, and refuses the refresh cookie once signed out', async () => {
    const { page } = tab;
    await signUp(page, world.url, { email: freshEmail() });
    await page.waitForTimeout((TTL_SECONDS + 1) * 1000);
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('heading', { name: 'No applications yet' }).waitFor(); // loaded with a refreshed token
    expect(page.url()).not.toContain('sign-in');

    await page.reload();
    await page.getByRole('heading', { name: 'No applications yet' }).waitFor();

    const [cookie] = (await tab.context.cookies()).filter((c) => c.name === 'ap_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await tab.context.cookies()).filter((c) => c.name === 'ap_refresh')).toEqual([]);

    // The cookie of before the sign-out, put back: its family is revoked, so the console stays signed out.
    await tab.context.addCookies([cookie!]);
    await tab.goto('/applications');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('resets a forgotten password with the e-mailed token pasted, never in a link', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await tab.goto('/reset-password');
    await page.getByLabel('E-mail', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send me a reset token' }).click();
    await page.getByText(/a reset token is on its way/).waitFor();
    const outbox = join(world.stack.config.dataDir, 'outbox');
    const mail = readdirSync(outbox).map((f) => JSON.parse(readFileSync(join(outbox, f), 'utf8')) as { to: string; text: string }).find((m) => m.to === user.email)!;
    const token = /^([\w-]{40,})$/m.exec(mail.text)![1]!;
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'reset-password');

    await page.getByLabel('Reset token (from the e-mail)').fill(token);
    await page.getByLabel('New password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password was changed. Sign in with it.').waitFor();
    await signIn(page, world.url, { email: user.email, password: 'a brand new passphrase' });
    expect(tab.requestUrls.some((u) => u.includes(token))).toBe(false);
  });

  it('signs up with the API’s refusals on their fields (an e-mail already registered)', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await tab.goto('/sign-up');
    await page.getByLabel('Your name').fill('Twin');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.locator('.ap-field__error, .ap-error-text').first().waitFor();
    expect(await page.locator('.ap-field__error, .ap-error-text').first().textContent()).toMatch(/already/i);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-up-error');
  });
});
