import { describeInBrowser } from '../browser/support/browser';
import { zipOf } from '../support/plugins/plugin-examples';
import { addMember, makeTeam } from '../support/sso-teams';
import { registerUser, userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack } from './support/console-stack';

/** The admin page's document: it tries to read the console's cookies, storage and DOM (the CSP and the sandbox stop it). */
const REPORT_PAGE = '<!doctype html><html lang="en"><head><title>Greeter report</title></head><body><h1>Greeter report</h1><p id="seen">nothing read</p><script>document.getElementById("seen").textContent = document.cookie + parent.document.title</script></body></html>';
const SOURCE = `definePlugin({ endpoints: [{ method: 'GET', path: '/boom', auth: false, handler: () => { throw new Error('boom on purpose'); } }, { method: 'GET', path: '/report', auth: true, handler: () => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: ${JSON.stringify(REPORT_PAGE)} }) }], adminPages: [{ path: '/report', title: 'Greeter report', group: 'Insights' }] });`;
const SETTINGS = JSON.stringify({ greeting: { type: 'string', required: true }, apiToken: { type: 'string', secret: true }, loud: { type: 'boolean', default: false } });

/** Plugins in Chromium: create (a manifest error on its field), publish, install with write-only secrets, the breaker, admin pages isolated, a Viewer. */
describeInBrowser('console: plugins', () => {
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

  it('creates a plugin (manifest errors on their fields), publishes, installs, runs, trips the breaker, shows its admin page isolated, uninstalls', async () => {
    const { page } = tab;
    const { client } = world.stack;
    const owner = await userWithApplication(client, { name: 'Gadget Shop' });
    await signIn(page, world.url, owner);
    await tab.goto('/plugins');
    await page.getByRole('heading', { name: 'No plugins yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The API's 400 lands on the fields it names; what was typed stays.
    await page.getByRole('link', { name: 'New plugin' }).click();
    const hostile = xssPayload('plugindesc');
    await page.getByLabel('Name', { exact: true }).fill('greeter');
    await page.getByLabel('Display name').fill('Greeter');
    await page.getByLabel('Version').fill('1.2');
    await page.getByLabel('Description').fill(hostile);
    await page.getByLabel('Settings (JSON)').fill(JSON.stringify({ words: { type: 'list' } }));
    const source = page.getByRole('textbox', { name: 'Source' });
    await source.fill(SOURCE);
    await page.getByRole('button', { name: 'Create plugin' }).click();
    await page.getByText('Version must be a SemVer version such as 1.2.0').waitFor();
    expect(await page.getByLabel('Version').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByLabel('Description').inputValue()).toBe(hostile);
    await page.getByLabel('Version').fill('1.0.0');
    await page.getByRole('button', { name: 'Create plugin' }).click();
    await page.getByText('words.type: type must be one of string, number, boolean, array, object').waitFor();
    expect(await page.getByLabel('Settings (JSON)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Version').getAttribute('aria-invalid')).toBeNull();
    expect(await source.getAttribute('aria-invalid')).toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'plugins-create');

    await page.getByLabel('Settings (JSON)').fill(SETTINGS);
    await page.getByRole('button', { name: 'Create plugin' }).click();
    await page.getByRole('heading', { name: 'Greeter', level: 1 }).waitFor();
    await page.getByText(hostile).first().waitFor(); // the description as text
    await page.getByRole('textbox', { name: 'Source' }).getByText('boom on purpose', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('dialog', { name: 'Publish this plugin?' }).getByRole('button', { name: 'Publish' }).click();
    await page.getByText(/· Published /).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'plugins-detail');

    // Install: the settings form from the manifest; a required setting missing is refused on its field.
    await page.getByRole('link', { name: 'Install in an application' }).click();
    await page.getByRole('heading', { name: 'No plugins installed' }).waitFor();
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Install Greeter' });
    await dialog.getByRole('button', { name: 'Install' }).click();
    await dialog.getByText('Greeting is required').waitFor();
    expect(await dialog.getByLabel('greeting (required)').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('greeting (required)').fill('Hello');
    await dialog.getByLabel('apiToken').fill('tok-very-secret-123');
    await dialog.getByRole('button', { name: 'Install' }).click();
    const panel = page.getByRole('region', { name: /^Greeter/ });
    await panel.getByText('Secret: set').waitFor();
    expect(await panel.getByLabel('apiToken').inputValue()).toBe('');
    expect(await page.content()).not.toContain('tok-very-secret-123');
    await panel.getByRole('button', { name: 'Activate' }).click();
    await panel.getByRole('button', { name: 'Deactivate' }).waitFor();

    // A setting changed, the secret left empty: it keeps its value (still set), never read back.
    await panel.getByLabel('greeting (required)').fill('Good day');
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await panel.getByText('Settings saved.').waitFor();
    await panel.getByText('Secret: set').waitFor();

    // The admin page: the plugin's own endpoint, in a frame that reaches nothing of the console.
    await page.getByRole('link', { name: 'Admin pages' }).click();
    await page.getByRole('heading', { name: 'Insights' }).waitFor();
    const frameElement = page.getByTitle('Admin page: Greeter report');
    await frameElement.waitFor();
    expect(await frameElement.getAttribute('sandbox')).toBe('allow-scripts');
    const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
    await frame.getByRole('heading', { name: 'Greeter report' }).waitFor();
    expect(await frame.locator('#seen').textContent()).toBe('nothing read'); // its inline script never ran
    const reach = await frame.evaluate(() => {
      const attempt = (f: () => unknown) => {
        try {
          return `read ${String(f())}`;
        } catch (error) {
          return (error as Error).name;
        }
      };
      return {
        origin: window.origin,
        cookie: attempt(() => document.cookie),
        localStorage: attempt(() => window.localStorage.length),
        sessionStorage: attempt(() => window.sessionStorage.length),
        parentDom: attempt(() => window.parent.document.title),
        topDom: attempt(() => window.top!.document.body.innerHTML),
      };
    });
    expect(reach).toEqual({ origin: 'null', cookie: 'SecurityError', localStorage: 'SecurityError', sessionStorage: 'SecurityError', parentDom: 'SecurityError', topDom: 'SecurityError' });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'plugins-admin-pages');

    // Five failures in a row trip the breaker: the installation is deactivated with the reason, live.
    await page.getByRole('link', { name: 'Installed' }).click();
    await page.getByRole('button', { name: 'Manage Greeter' }).click();
    await panel.getByRole('button', { name: 'Deactivate' }).waitFor();
    const plugin = (await client.get('/api/plugins', { token: owner.token })).body.find((p: { name: string }) => p.name === 'greeter');
    for (let n = 0; n < 5; n++) expect((await client.get(`/api/plugins/${plugin.id}/endpoints/boom?applicationId=${owner.app.id}`)).status).toBe(502);
    await panel.getByText('Tripped: the platform deactivated this plugin.').waitFor();
    await page.getByRole('row', { name: /^Greeter 1\.0\.0 Inactive/ }).waitFor(); // the list follows
    await panel.getByText(/Deactivated after 5 failures in a row; last: endpoint GET \/boom: .*boom on purpose/).waitFor();
    expect(await panel.getByRole('row', { name: /Failed: .*boom on purpose/ }).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'plugins-installed');

    await panel.getByRole('button', { name: 'Uninstall' }).click();
    await page.getByRole('dialog', { name: 'Uninstall Greeter?' }).getByRole('button', { name: 'Uninstall' }).click();
    await page.getByRole('heading', { name: 'No plugins installed' }).waitFor();
  });

  it('creates a plugin from a ZIP, and shows a Viewer of a team application the actions they cannot take (the API’s 403 if forced)', async () => {
    const { page } = tab;
    const { client } = world.stack;
    const owner = await registerUser(client);
    await world.stack.setPlan(owner.user.id, 'pro');
    const team = await makeTeam(world.stack, owner.user.id);
    const app = (await client.post('/api/applications', { name: 'Team Shop' }, { token: owner.access_token })).body;
    expect((await client.post(`/api/applications/${app.id}/transfer`, { teamId: team.id }, { token: owner.access_token })).status).toBe(200);
    const viewer = await registerUser(client);
    await addMember(world.stack, team.id, viewer.user.id, 'viewer');

    // The Owner makes the plugin from a ZIP package in the console, and installs it through the API.
    await signIn(page, world.url, owner);
    await tab.goto('/plugins/new');
    await page.getByLabel('Upload a ZIP').check();
    const zipWith = (version: string) => zipOf({ 'manifest.json': JSON.stringify({ name: 'zipped', displayName: 'Zipped', version, main: 'main.js' }), 'main.js': 'definePlugin({})' });
    await page.getByLabel('ZIP package').setInputFiles({ name: 'zipped.zip', mimeType: 'application/zip', buffer: await zipWith('two') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('alert').getByText('Version must be a SemVer version such as 1.2.0').waitFor();
    await page.getByLabel('ZIP package').setInputFiles({ name: 'zipped.zip', mimeType: 'application/zip', buffer: await zipWith('2.0.0') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { name: 'Zipped', level: 1 }).waitFor();
    const pluginId = page.url().split('/').pop()!;
    await page.getByRole('link', { name: 'All plugins' }).click();
    await page.getByRole('link', { name: 'Open Zipped' }).waitFor();
    expect(await page.getByRole('row', { name: /Zipped/ }).textContent()).toContain('Private');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'plugins-mine');
    const installed = await client.post(`/api/applications/${app.id}/plugins`, { pluginId }, { token: owner.access_token });
    expect(installed.status).toBe(201);
    await page.context().clearCookies();

    await signIn(page, world.url, viewer);
    await tab.goto(`/plugins/installed?app=${app.id}`);
    const reason = "Your role in this application's team (viewer) cannot manage plugins; an Admin or the Owner can.";
    await page.getByRole('button', { name: 'Manage Zipped' }).click();
    const panel = page.getByRole('region', { name: /^Zipped/ });
    const activate = panel.getByRole('button', { name: 'Activate' });
    await activate.waitFor();
    expect(await activate.isDisabled()).toBe(true);
    expect(await panel.getByRole('button', { name: 'Uninstall' }).isDisabled()).toBe(true);
    expect(await panel.getByText(reason).count()).toBe(1);
    expect((await client.put(`/api/applications/${app.id}/plugins/${installed.body.id}/activate`, undefined, { token: viewer.access_token })).status).toBe(403);
    expect(await axeViolations(page)).toEqual([]);
  });
});
