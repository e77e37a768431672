import { describeInBrowser } from '../browser/support/browser';
import { addMember, makeTeam } from '../support/sso-teams';
import { registerUser, userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

const HOSTILE_CSS = ['.ap-message { letter-spacing: .01em; }', '', '@import url("https://evil.example/steal.css");', '.ap-title { color: #0a7d4f; }'].join('\n');
const GOOD_CSS = '.ap-message { letter-spacing: .01em; }';

/**
 * Themes & branding in Chromium: presets and an own theme from the editor, the branding form with the real widget
 * previewing the draft, a hostile stylesheet refused on its line, attribution per plan, the hosted page switch.
 */
describeInBrowser('console: themes and branding', () => {
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

  it('chooses a preset, brands the widget with a live preview, refuses a hostile stylesheet on its line, hides the attribution on a paid plan, turns the hosted page on and saves an own theme', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Harbour Help' });
    const api = (path: string) => world.stack.client.get(path, { token: owner.token });
    // The preview re-renders shortly after the draft stops changing; busy until the frame has loaded it.
    const previewSettled = () => page.locator('iframe[title="Widget preview"]:not([aria-busy])').waitFor();
    await signIn(page, world.url, owner);
    await tab.goto(`/applications/${owner.app.id}/publish`);
    // A tab of the application's page: the screen's title is an h2 under the application's name.
    await page.getByRole('heading', { name: 'Themes & branding', level: 2 }).waitFor();
    const themes = page.getByRole('list', { name: 'Themes' });
    for (const name of ['Default', 'Dark', 'Minimal', 'Vibrant']) await themes.getByRole('listitem', { name }).waitFor();

    // A preset: chosen, marked in use, stored.
    await page.getByRole('button', { name: 'Use Dark' }).click();
    await themes.getByRole('listitem', { name: 'Dark' }).getByText('In use').waitFor();
    expect((await api(`/api/applications/${owner.app.id}`)).body.theme.themeId).toBe('dark');

    // The preview is the real widget in a sandboxed frame, showing what is typed before it is saved.
    expect(await page.locator('iframe[title="Widget preview"]').getAttribute('sandbox')).toBe('allow-scripts');
    const preview = page.frameLocator('iframe[title="Widget preview"]');
    await page.getByLabel('Welcome text').fill('Ahoy! Ask us about moorings.');
    await page.getByLabel('Brand colour: primary').fill('#0a7d4f');
    await page.getByLabel('Body font').fill('Georgia, serif');
    await page.getByLabel('Widget position').selectOption('bottom-left');
    await page.getByLabel('Input placeholder').fill('Your question');
    await page.getByLabel('Logo (https URL, shown in e-mails)').fill('https://cdn.harbour.example/logo.png');
    await previewSettled();
    await preview.getByText('Ahoy! Ask us about moorings.').waitFor();
    await preview.getByPlaceholder('Your question').waitFor();

    // A hostile stylesheet: the server's refusal, on the line of the refused rule, marked in the editor.
    const css = page.getByRole('textbox', { name: 'Custom CSS' });
    await css.click();
    await page.keyboard.insertText(HOSTILE_CSS);
    await page.getByRole('button', { name: 'Save branding' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /^Line 3: `@import` is not allowed/ });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('in rule `@import url("https://evil.example/steal.css");`');
    await page.locator('.cm-lintRange-error').filter({ hasText: '@import' }).waitFor();
    expect((await api(`/api/branding/${owner.app.id}`)).body.updatedAt).toBeNull();
    await previewSettled();
    await preview.getByText('Ahoy! Ask us about moorings.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'branding-css-refused');

    // Free plan: the attribution cannot be hidden, and says why.
    const attribution = page.getByLabel('Show “Powered by” attribution');
    expect(await attribution.isChecked()).toBe(true);
    expect(await attribution.isDisabled()).toBe(true);
    await page.getByText('Hiding the attribution needs a paid plan (Starter or above). Your plan is Free.').waitFor();

    await css.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(GOOD_CSS);
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved.').waitFor();
    expect(await refusal.count()).toBe(0);
    const saved = (await api(`/api/branding/${owner.app.id}`)).body;
    expect(saved).toMatchObject({
      colors: { primary: '#0a7d4f' },
      typography: { bodyFont: 'Georgia, serif' },
      widget: { position: 'bottom-left', welcomeMessage: 'Ahoy! Ask us about moorings.', placeholder: 'Your question' },
      email: { headerLogoUrl: 'https://cdn.harbour.example/logo.png' },
      customCss: GOOD_CSS,
      showAttribution: true,
    });

    // The hosted page: off, switched on, its link served.
    const hosted = page.getByRole('switch', { name: 'Hosted chat page' });
    expect(await hosted.isChecked()).toBe(false);
    await hosted.click();
    const link = page.getByLabel('Hosted page link');
    await link.waitFor();
    expect(await link.textContent()).toBe(`${world.url}/chat/${owner.app.slug}`);
    expect((await fetch(`${world.url}/chat/${owner.app.slug}`)).status).toBe(200);
    await previewSettled();
    await preview.getByText('Ahoy! Ask us about moorings.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'branding');

    // A paid plan may hide the attribution.
    await world.stack.setPlan(owner.user.id, 'starter');
    await page.reload();
    await page.getByText('Your plan lets you hide it.').waitFor();
    await page.getByLabel('Show “Powered by” attribution').uncheck();
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved.').waitFor();
    expect((await api(`/api/branding/${owner.app.id}`)).body.showAttribution).toBe(false);

    // An own theme from the editor, previewed live, saved and used.
    await page.getByRole('link', { name: 'New theme' }).click();
    await page.getByRole('heading', { name: 'New theme', level: 1 }).waitFor();
    await page.getByLabel('Start from').selectOption({ label: 'Dark' });
    await page.getByLabel('Colour: primary').fill('#f59e0b');
    await page.getByLabel('Corner radius').fill('4px');
    await page.getByLabel('Name', { exact: true }).fill('Harbour Night');
    await previewSettled();
    await preview.getByText('Harbour Night').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'branding-theme-editor');
    await page.getByRole('button', { name: 'Save and use for this application' }).click();
    // Back on the application's Publish & embed tab (the editor returns to the old address, which opens it).
    await page.waitForURL(`**/applications/${owner.app.id}/publish`);
    await page.getByRole('heading', { name: 'Themes & branding', level: 2 }).waitFor();
    await themes.getByRole('listitem', { name: 'Harbour Night' }).getByText('In use').waitFor();
    const own = (await api('/api/themes')).body.find((t: { name: string }) => t.name === 'Harbour Night');
    expect(own).toMatchObject({ own: true, extend: 'dark' });
    expect(own.definition.colors.primary).toBe('#f59e0b');
    expect((await api(`/api/applications/${owner.app.id}`)).body.theme.themeId).toBe(own.id);
  });

  it("shows a team Viewer the team application's branding with every change disabled and why, and the API refuses it (403)", async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Crew Desk' });
    const team = await makeTeam(world.stack, owner.user.id);
    expect((await world.stack.client.post(`/api/applications/${owner.app.id}/transfer`, { teamId: team.id }, { token: owner.token })).status).toBe(200);
    const viewer = await registerUser(world.stack.client);
    await addMember(world.stack, team.id, viewer.user.id, 'viewer');
    await signIn(page, world.url, viewer);
    await tab.goto(`/applications/${owner.app.id}/publish`);
    await page.getByText(/^Your role in Team .* is viewer: choosing the theme, saving branding and switching the hosted page need Admin or Owner/).waitFor();
    expect(await page.getByRole('button', { name: 'Use Dark' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save branding' }).isDisabled()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Hosted chat page' }).isDisabled()).toBe(true);
    const forced = await world.stack.client.put(`/api/branding/${owner.app.id}`, { widget: { welcomeMessage: 'Hi' } }, { token: viewer.access_token });
    expect(forced.status).toBe(403);
    expect(await axeViolations(page)).toEqual([]);
  });
});
