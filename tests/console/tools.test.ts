import { describeInBrowser } from '../browser/support/browser';
import { startStreamableMcp, type LocalMcp } from '../support/local-mcp-servers';
import { addMember, makeTeam } from '../support/sso-teams';
import { registerUser, userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

const SECRET = 'wx-secret-token-5c1d9';
const HEADER_SECRET = 'mcp-bearer-8f2e1a';

/** Tools & MCP in Chromium: a tool with a schema error on its field, a write-only secret, the agent settings, the MCP panel. */
describeInBrowser('console: tools and MCP', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;
  let mcp: LocalMcp;

  beforeAll(async () => {
    // The local MCP server listens on loopback: the operator allows it, as WEBHOOKS_ALLOWED_PRIVATE_CIDRS does in a deployment.
    [world, mcp] = await Promise.all([startConsoleStack({ env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' } }), startStreamableMcp()]);
  });
  afterAll(() => Promise.all([world?.close(), mcp?.close()]));
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('creates a tool (its schema error shown on the field, its secret never shown), enables it for the agent, shows the MCP connection and deletes it', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Harbour Help' });
    const api = (path: string) => world.stack.client.get(`/api/applications/${owner.app.id}${path}`, { token: owner.token });
    await signIn(page, world.url, owner);
    await tab.goto(`/applications/${owner.app.id}/tools`);
    await page.getByRole('heading', { name: 'No tools yet' }).waitFor();
    await page.getByRole('button', { name: 'New tool' }).click();

    const dialog = page.getByRole('dialog', { name: 'Create a tool' });
    await dialog.getByLabel('Name', { exact: true }).fill('get_weather');
    await dialog.getByLabel('Description').fill('The current weather of a city');
    const schema = dialog.getByRole('textbox', { name: 'Parameters (JSON Schema)' });
    await schema.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('{"type": "object", "properties": {"city": {"type": "strnig"}}}');
    await dialog.getByLabel('URL').fill('https://api.weather.example/v1/now?city={{args.city}}');
    await dialog.getByLabel('Headers').fill('Authorization: Bearer {{secrets.TOKEN}}');
    await dialog.getByLabel('Secret name').fill('TOKEN');
    await dialog.getByLabel('Secret value').fill(SECRET);
    await dialog.getByRole('button', { name: 'Save tool' }).click();

    // The API's 400 on the field it names: the schema editor, marked invalid.
    await dialog.locator('#tool-parameters-error').scrollIntoViewIfNeeded();
    expect(await schema.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'tools-schema-error');

    await schema.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}');
    await dialog.getByRole('button', { name: 'Save tool' }).click();
    const row = page.getByRole('row', { name: /get_weather/ });
    await row.getByText('TOKEN (set)').waitFor();
    expect((await api('/tools')).body[0]).toMatchObject({ name: 'get_weather', secretNames: ['TOKEN'], parameters: { required: ['city'] } });

    // Write-only: editing shows the secret as set, never its value.
    await page.getByRole('button', { name: 'Edit get_weather' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “get_weather”' });
    await edit.getByText('set', { exact: true }).waitFor();
    expect(await edit.getByLabel('New value for TOKEN').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SECRET);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // The agent settings: the tool enabled, a choice, a limit.
    await page.getByRole('checkbox', { name: 'get_weather' }).check();
    await page.getByLabel('Tool choice').selectOption('required');
    await page.getByLabel('Tool rounds at most').fill('3');
    await page.getByRole('button', { name: 'Save agent settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Agent settings saved' }).waitFor();
    expect((await api('/agent')).body).toMatchObject({ enabledTools: ['get_weather'], toolChoice: 'required', maxToolRounds: 3 });

    // The MCP panel: the URL to copy and where the key comes from.
    expect(await page.getByLabel('MCP server URL').inputValue()).toBe(`${world.url}/api/v1/mcp`);
    await page.getByRole('link', { name: 'Manage API keys' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'tools');

    await page.getByRole('button', { name: 'Delete get_weather' }).click();
    await page.getByRole('dialog', { name: 'Delete “get_weather”?' }).getByRole('button', { name: 'Delete tool' }).click();
    await page.getByRole('heading', { name: 'No tools yet' }).waitFor();
  });

  it("shows a team Viewer the tools with every change disabled and why, and the API refuses it (403)", async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Crew Desk' });
    const team = await makeTeam(world.stack, owner.user.id);
    expect((await world.stack.client.post(`/api/applications/${owner.app.id}/transfer`, { teamId: team.id }, { token: owner.token })).status).toBe(200);
    const viewer = await registerUser(world.stack.client);
    await addMember(world.stack, team.id, viewer.user.id, 'viewer');
    await signIn(page, world.url, viewer);
    await tab.goto(`/applications/${owner.app.id}/tools`);
    await page.getByText(/^Your role in this application's team \(viewer\) can look but not change tools/).waitFor();
    expect(await page.getByRole('button', { name: 'New tool' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save agent settings' }).isDisabled()).toBe(true);
    const forced = await world.stack.client.put(`/api/applications/${owner.app.id}/agent`, { maxToolRounds: 2 }, { token: viewer.access_token });
    expect(forced.status).toBe(403);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('adds an MCP server (a refused address shown with its reason, header values write-only), lists its tools, enables one, edits it (its header kept, then removed), shows a failed refresh and deletes it', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Docs Desk' });
    const api = (path: string) => world.stack.client.get(`/api/applications/${owner.app.id}${path}`, { token: owner.token });
    await signIn(page, world.url, owner);
    await tab.goto(`/applications/${owner.app.id}/tools`);
    await page.getByRole('heading', { name: 'No MCP servers yet' }).waitFor();
    await page.getByRole('button', { name: 'Add an MCP server' }).click();

    const dialog = page.getByRole('dialog', { name: 'Add an MCP server' });
    await dialog.getByLabel('Server name').fill('docs');
    await dialog.getByLabel('Server URL').fill('http://169.254.169.254/mcp');
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await dialog.getByText(/private or reserved address/).waitFor();
    expect(await dialog.getByLabel('Server URL').getAttribute('aria-invalid')).toBe('true');

    await dialog.getByLabel('Server URL').fill(mcp.url);
    await dialog.getByRole('button', { name: 'Add a header' }).click();
    await dialog.getByLabel('Header 1 name').fill('Authorization');
    await dialog.getByLabel('Header 1 value').fill(`Bearer ${HEADER_SECRET}`);
    await dialog.getByRole('button', { name: 'Add server' }).click();
    const tools = page.getByRole('table', { name: 'Tools of docs' });
    await tools.getByRole('row', { name: /docs_add/ }).waitFor();
    await dialog.waitFor({ state: 'hidden' }); // the list can refresh a moment before the dialog (and its typed value) goes
    expect(mcp.authorizations).toContain(`Bearer ${HEADER_SECRET}`);
    expect(await page.content()).not.toContain(HEADER_SECRET);

    // The agent settings offer the MCP tools beside the application's own.
    await page.getByRole('checkbox', { name: /^docs_add/ }).check();
    await page.getByRole('button', { name: 'Save agent settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Agent settings saved' }).waitFor();
    expect((await api('/agent')).body).toMatchObject({ enabledTools: ['docs_add'] });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'tools-mcp-servers');

    // Edited in the console: the form holds the server's settings, the header's value is not shown and, left
    // empty, is kept.
    const gone = await startStreamableMcp();
    await gone.close();
    await page.getByRole('button', { name: 'Edit server docs' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the MCP server “docs”' });
    expect(await edit.getByLabel('Server URL').inputValue()).toBe(mcp.url);
    expect(await edit.getByLabel('New value for Authorization').inputValue()).toBe('');
    await edit.getByLabel('Server URL').fill(gone.url);
    await edit.getByRole('button', { name: 'Save server' }).click();
    await edit.waitFor({ state: 'detached' });
    expect((await api('/mcp-servers')).body[0]).toMatchObject({ url: gone.url, headerNames: ['Authorization'] });
    expect(await page.content()).not.toContain(HEADER_SECRET);

    // A refresh the server cannot answer: the API's 502 reason, the cached list kept.
    await page.getByRole('button', { name: 'Refresh docs' }).click();
    await page.getByRole('alert').filter({ hasText: /could not be reached/ }).waitFor();

    // A header removed in the edit form is gone from the server.
    await page.getByRole('button', { name: 'Edit server docs' }).click();
    await edit.getByRole('button', { name: 'Remove header Authorization' }).click();
    await edit.getByText('Authorization will be removed.').waitFor();
    await edit.getByRole('button', { name: 'Save server' }).click();
    await edit.waitFor({ state: 'detached' });
    expect((await api('/mcp-servers')).body[0].headerNames).toEqual([]);

    await page.getByRole('button', { name: 'Delete server docs' }).click();
    await page.getByRole('dialog', { name: 'Delete the MCP server “docs”?' }).getByRole('button', { name: 'Delete server' }).click();
    await page.getByRole('heading', { name: 'No MCP servers yet' }).waitFor();
  });
});
