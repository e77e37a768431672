import { IDENTITY_TOKENS } from '../../apps/core-api/modules/identities.tokens';
import { resolve } from '../../apps/shared/tokens';
import { describeInBrowser } from '../browser/support/browser';
import { FakeOAuthProviders } from '../support/fake-oauth-providers';
import { registerUser } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** The Account screen in Chromium: profile, password, sign-in identities, plan and usage, deletion. */
describeInBrowser('console: account', () => {
  let fake: FakeOAuthProviders;
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    fake = await FakeOAuthProviders.start();
    world = await startConsoleStack({ env: fake.env });
  });
  afterAll(async () => {
    await world?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('shows the profile (a display name holding <img onerror> as text), saves it, and shows the plan and usage', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    const payload = xssPayload('display-name');
    expect((await world.stack.client.put('/api/users/me', { displayName: payload }, { token: user.access_token })).status).toBe(200);
    await signIn(page, world.url, user);
    await tab.goto('/account');
    const profile = page.getByRole('region', { name: 'Profile' });
    await expect(profile.getByLabel('Display name').inputValue()).resolves.toBe(payload);
    await profile.getByText(user.user.email).waitFor();
    const plan = page.getByRole('region', { name: 'Plan and usage' });
    await plan.getByText('Free plan (active)').waitFor();
    await plan.getByText('Platform-key tokens used').waitFor();
    await page.getByText('No linked identities: you sign in with your e-mail and password.').waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account');

    await profile.getByLabel('Display name').fill('Ada Lovelace');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText('Profile saved.').waitFor();
    const me = await world.stack.client.get('/api/users/me', { token: user.access_token });
    expect(me.body.displayName).toBe('Ada Lovelace');
  });

  it('puts a wrong current password’s error on its field, then changes the password and signs out', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await tab.goto('/account');
    const section = page.getByRole('region', { name: 'Password' });
    await section.getByLabel('Current password').fill('not-my-password-at-all');
    await section.getByLabel('New password').fill('a much longer passphrase 2027');
    await section.getByRole('button', { name: 'Change password' }).click();
    const error = section.locator('.ap-field', { has: page.getByLabel('Current password') }).getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^Current password is incorrect/);
    await expect(section.getByLabel('New password').inputValue()).resolves.toBe('a much longer passphrase 2027');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-wrong-password');

    await section.getByLabel('Current password').fill(user.password);
    await section.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const login = await world.stack.client.post('/api/auth/login', { email: user.user.email, password: 'a much longer passphrase 2027' });
    expect(login.status).toBe(200);
  });

  it('lists linked identities, unlinks one after confirmation, and offers link buttons for the platform’s providers', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    const identities = resolve(world.stack.core.container, IDENTITY_TOKENS.IdentityRepository);
    await identities.create({ userId: user.user.id, provider: 'github', ssoConfigId: null, subject: `gh-${Date.now()}`, email: 'ada@github.example' });
    await signIn(page, world.url, user);
    await tab.goto('/account');
    const section = page.getByRole('region', { name: 'Sign-in identities' });
    await section.getByText('as ada@github.example').waitFor();
    // GitHub is linked: only Google is offered.
    await section.getByRole('link', { name: 'Link Google' }).waitFor();
    expect(await section.getByRole('link', { name: 'Link GitHub' }).count()).toBe(0);
    expect(await section.getByRole('link', { name: 'Link Google' }).getAttribute('href')).toBe('/api/auth/google');

    await section.getByRole('button', { name: 'Unlink GitHub' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unlink GitHub?' });
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Unlink' }).click();
    await section.getByText('No linked identities: you sign in with your e-mail and password.').waitFor();
    await section.getByRole('link', { name: 'Link GitHub' }).waitFor();
    expect((await world.stack.client.get('/api/users/me/identities', { token: user.access_token })).body.identities).toEqual([]);
  });

  it('deletes the account after confirmation with the password (a wrong one on the field)', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await tab.goto('/account');
    await page.getByRole('region', { name: 'Delete the account' }).getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password').fill('wrong-password-here');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    const wrong = dialog.locator('.ap-field__error');
    await wrong.waitFor();
    expect(await wrong.textContent()).toMatch(/password is incorrect/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-delete');
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const login = await world.stack.client.post('/api/auth/login', { email: user.user.email, password: user.password });
    expect(login.status).toBe(401);
  });

  it('shows the error state when the usage cannot load', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await page.route('**/api/billing/usage', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, message: 'Billing is resting', error: 'Service Unavailable' }) }));
    await tab.goto('/account');
    await page.getByRole('region', { name: 'Plan and usage' }).getByText('Billing is resting').waitFor({ timeout: 20_000 });
  });
});
