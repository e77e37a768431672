import { describeInBrowser } from '../browser/support/browser';
import { teamApplication, teamWithEveryRole } from '../e2e/teams/team-support';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, signIn, startConsoleStack, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/**
 * Connections in Chromium (docs/connections.md): the provider emulator is an OpenAI-compatible endpoint on
 * loopback, which the operator allows for connections; its models are then offered in the model pickers.
 */
describeInBrowser('console: connections', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    world = await startConsoleStack({ env: { CONNECTIONS_ALLOW_HTTP: 'true', CONNECTIONS_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' } });
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('adds a connection, lists and finds its models, tests it, offers it in the model picker, and deletes it', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Own endpoint shop' });
    await signIn(page, world.url, owner);
    await tab.goto('/provider-keys');
    const section = page.getByRole('region', { name: 'Connections' });
    await section.getByText('No connections yet.').waitFor();

    const rawKey = 'sk-connection-console-4Xy2';
    await section.getByLabel('Name').fill('local-llm');
    await section.getByLabel('Base URL').fill(`${world.stack.emulator!.url}/provider_a/v1`);
    await section.getByLabel('API key (optional)').fill(rawKey);
    await section.getByLabel('Extra headers (optional)').fill('X-Tenant: team-secret-42');
    await section.getByRole('button', { name: 'Add a connection' }).click();
    await section.getByText('Added local-llm.').waitFor();
    const item = section.getByRole('listitem', { name: 'local-llm' });
    await item.getByText(/Key ending in 4Xy2/).waitFor();
    await item.getByText(/Extra headers: x-tenant/).waitFor();
    await item.getByRole('list', { name: 'Models of local-llm' }).getByText('gpt-4o-mini', { exact: true }).waitFor();
    const content = await page.content();
    expect(content).not.toContain(rawKey);
    expect(content).not.toContain('team-secret-42');
    expect(await axeViolations(page)).toEqual([]);

    await item.getByRole('button', { name: 'Test local-llm' }).click();
    await item.getByText(/The endpoint answered \(\d+ models available\)/).waitFor();
    await item.getByRole('button', { name: 'Find models again for local-llm' }).click();
    await item.getByText(/Found \d+ models/).waitFor();

    // The connection's models are offered where a model is picked.
    await tab.goto('/model-configs');
    await page.getByRole('button', { name: 'New config' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a model config' });
    await dialog.getByLabel('Name').fill('On my endpoint');
    await dialog.getByLabel('Provider').selectOption('local-llm');
    await dialog.getByLabel('Model').selectOption('gpt-4o-mini');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const configs = await world.stack.client.get(`/api/model-configs?applicationId=${owner.app.id}`, { token: owner.token });
    expect(configs.body).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'On my endpoint', provider: 'local-llm', modelId: 'gpt-4o-mini' })]));

    await tab.goto('/provider-keys');
    const again = page.getByRole('region', { name: 'Connections' }).getByRole('listitem', { name: 'local-llm' });
    await again.getByRole('button', { name: 'Delete the connection local-llm' }).click();
    await page.getByRole('dialog', { name: 'Delete the connection local-llm?' }).getByRole('button', { name: 'Delete connection' }).click();
    await page.getByRole('region', { name: 'Connections' }).getByText('No connections yet.').waitFor();
  });

  it('adds an Anthropic-compatible connection chosen by its kind, and lists the models its API serves', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Anthropic gateway shop' });
    await signIn(page, world.url, owner);
    await tab.goto('/provider-keys');
    const section = page.getByRole('region', { name: 'Connections' });
    await section.getByText('No connections yet.').waitFor();
    await section.getByLabel('Name').fill('claude-gateway');
    await section.getByLabel('Kind').selectOption({ label: 'Anthropic-compatible' });
    await section.getByLabel('Base URL').fill(`${world.stack.emulator!.url}/provider_b`);
    await section.getByLabel('API key (optional)').fill('sk-ant-console-9Qz1');
    await section.getByRole('button', { name: 'Add a connection' }).click();
    await section.getByText('Added claude-gateway.').waitFor();
    const item = section.getByRole('listitem', { name: 'claude-gateway' });
    await item.getByText(/Anthropic-compatible/).waitFor();
    await item.getByRole('list', { name: 'Models of claude-gateway' }).getByText('claude-3-5-haiku-latest', { exact: true }).waitFor();
    const listed = await world.stack.client.get('/api/connections', { token: owner.token });
    expect(listed.body.data).toEqual([expect.objectContaining({ name: 'claude-gateway', kind: 'anthropic_compatible' })]);
  });

  it('a team Admin adds a team connection under "Whose connections", a Viewer sees it read-only, and the team application\'s model picker offers it', async () => {
    const { page } = tab;
    const team = await teamWithEveryRole(world.stack);
    const { admin, viewer } = team.users;
    const teamName = (await world.stack.client.get(`/api/teams/${team.teamId}`, { token: admin.token })).body.name as string;
    const app = await teamApplication(world.stack, team, 'Team endpoint app');
    const baseUrl = `${world.stack.emulator!.url}/provider_a/v1`;
    // The Admin's personal connection is not the team application's: its picker does not offer it.
    expect((await world.stack.client.post('/api/connections', { name: 'admins-own', baseUrl }, { token: admin.token })).status).toBe(201);

    await signIn(page, world.url, admin);
    await tab.goto('/provider-keys');
    const section = page.getByRole('region', { name: 'Connections' });
    await section.getByRole('listitem', { name: 'admins-own' }).waitFor();
    await section.getByLabel('Whose connections').selectOption({ label: teamName });
    await section.getByText(`${teamName} has no connections yet.`).waitFor();
    await section.getByLabel('Name').fill('team-llm');
    await section.getByLabel('Base URL').fill(baseUrl);
    await section.getByLabel('API key (optional)').fill('sk-team-console-7Hq3');
    await section.getByRole('button', { name: 'Add a connection' }).click();
    await section.getByText('Added team-llm.').waitFor();
    await section.getByRole('listitem', { name: 'team-llm' }).getByRole('list', { name: 'Models of team-llm' }).getByText('gpt-4o-mini', { exact: true }).waitFor();
    const listed = await world.stack.client.get(`/api/connections?teamId=${team.teamId}`, { token: viewer.token });
    expect(listed.body.data).toEqual([expect.objectContaining({ name: 'team-llm', teamId: team.teamId })]);

    await tab.goto(`/model-configs?app=${app.id}`);
    await page.getByRole('button', { name: 'New config' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a model config' });
    await dialog.getByLabel('Provider').locator('option[value="team-llm"]').waitFor({ state: 'attached' });
    expect(await dialog.getByLabel('Provider').locator('option[value="admins-own"]').count()).toBe(0);
    await dialog.getByLabel('Name').fill('On the team endpoint');
    await dialog.getByLabel('Provider').selectOption('team-llm');
    await dialog.getByLabel('Model').selectOption('gpt-4o-mini');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const configs = await world.stack.client.get(`/api/model-configs?applicationId=${app.id}`, { token: admin.token });
    expect(configs.body).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'On the team endpoint', provider: 'team-llm' })]));

    const viewerTab = await world.open();
    try {
      await signIn(viewerTab.page, world.url, viewer);
      await viewerTab.goto('/provider-keys');
      const theirs = viewerTab.page.getByRole('region', { name: 'Connections' });
      await theirs.getByLabel('Whose connections').selectOption({ label: teamName });
      const item = theirs.getByRole('listitem', { name: 'team-llm' });
      await item.waitFor();
      await theirs.getByText(`Your role in ${teamName} is Viewer: adding, testing, finding models for and deleting its connections need Admin or Owner.`, { exact: false }).waitFor();
      expect(await item.getByRole('button', { name: 'Test team-llm' }).isDisabled()).toBe(true);
      expect(await item.getByRole('button', { name: 'Delete the connection team-llm' }).isDisabled()).toBe(true);
      expect(await theirs.getByRole('button', { name: 'Add a connection' }).count()).toBe(0);
      expect(await axeViolations(viewerTab.page)).toEqual([]);
    } finally {
      await closeCheckedTab(viewerTab);
    }
  });
});
