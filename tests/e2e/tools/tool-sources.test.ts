import { OpenAiLlmProvider } from '../../../adapters/providers/openai-llm.provider';
import { AjvJsonSchemaChecker } from '../../../adapters/tools/ajv.json-schema-checker';
import { TOOL_TOKENS } from '../../../apps/core-api/modules/tools.tokens';
import { TOKENS, resolve } from '../../../apps/shared/tokens';
import { defaultAgentSettings } from '../../../core/tools/domain/agent-settings';
import { runToolLoop, type ToolLoopResult } from '../../../core/tools/use-cases/tool-loop';
import { startStreamableMcp, type LocalMcp } from '../../support/local-mcp-servers';
import { aPlugin } from '../../support/plugins/plugin-examples';
import { startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';

const MCP_TOKEN = 'mcp-live-token-5f1c2e9a';
const PASTED_KEY = 'pasted-key-7d41b09c33';

/** A plugin with three tools: a lookup over its settings, a CPU hog, and an echo of what it was given. */
const TOOLS_PLUGIN = `
definePlugin({
  tools: [
    {
      name: 'opening_hours',
      description: 'Opening hours of a store by city',
      parameters: { type: 'object', properties: { city: { type: 'string', maxLength: 40 } }, required: ['city'], additionalProperties: false },
      handler: async ({ city }) => {
        const hours = (platform.settings.hours || {})[city.toLowerCase()];
        if (!hours) throw new Error('no store in ' + city);
        await platform.kv.set('last-city', city);
        return { city, hours };
      },
    },
    { name: 'spin', description: 'Thinks very hard', parameters: { type: 'object' }, timeoutMs: 10000, handler: () => { for (;;) {} } },
    { name: 'echo', description: 'Says back what it got', handler: (args) => ({ got: args, polluted: ({}).polluted === true }) },
  ],
});`;

describe('tool sources of an application: plugins and MCP servers', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof userWithApplication>>;
  let other: Awaited<ReturnType<typeof userWithApplication>>;
  let mcp: LocalMcp;

  beforeAll(async () => {
    // The local MCP server listens on loopback: the operator allows it, as WEBHOOKS_ALLOWED_PRIVATE_CIDRS does in a deployment.
    [stack, mcp] = await Promise.all([
      startCoreApi({ providers: true, engine: 'in-process', env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' } }),
      startStreamableMcp(),
    ]);
    owner = await userWithApplication(stack.client);
    other = await userWithApplication(stack.client);
  });
  afterAll(async () => {
    await stack?.close();
    await mcp?.close();
  });

  const base = () => `/api/applications/${owner.app.id}`;

  async function installPlugin(source: string, settings: Record<string, unknown> = {}) {
    const created = await stack.client.post('/api/plugins', aPlugin(source, { settings: { hours: { type: 'object', default: {} } } }), { token: owner.token });
    expect(created.status).toBe(201);
    const installed = await stack.client.post(`${base()}/plugins`, { pluginId: created.body.id, settings }, { token: owner.token });
    expect(installed.status).toBe(201);
    return { installationId: installed.body.id as string, activate: () => stack.client.put(`${base()}/plugins/${installed.body.id}/activate`, undefined, { token: owner.token }) };
  }

  /** A turn of the loop over the application's own toolset and runners, on the emulated OpenAI model. */
  async function turn(message: string, enabledTools: string[]): Promise<ToolLoopResult> {
    const container = stack.core.container;
    const tools = await resolve(container, TOOL_TOKENS.Toolset).forTurn(owner.app.id);
    const loop = runToolLoop(
      { schemas: new AjvJsonSchemaChecker(), runners: resolve(container, TOOL_TOKENS.Runners) },
      {
        provider: new OpenAiLlmProvider({ baseUrl: stack.emulator!.baseUrls.provider_a, timeoutMs: 5_000 }),
        request: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: message }], settings: { temperature: 0, maxTokens: 500, topP: 1 }, apiKey: 'sk-test-a-1234' },
        tools,
        settings: { ...defaultAgentSettings(), enabledTools },
        applicationId: owner.app.id,
        ownerId: owner.user.id,
      },
    );
    let next = await loop.next();
    while (!next.done) next = await loop.next();
    return next.value;
  }

  it('refuses to activate a plugin whose tools are not valid, naming the tool', async () => {
    const bad = await installPlugin(`definePlugin({ tools: [{ name: 'has space', description: 'x', handler: () => 1 }] })`);
    const refused = await bad.activate();
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/tool "has space": names are 1 to 64 letters/);
    const badSchema = await installPlugin(`definePlugin({ tools: [{ name: 'ok', description: 'x', parameters: { type: 'object', propertees: {} }, handler: () => 1 }] })`);
    expect((await badSchema.activate()).body.message).toMatch(/tool "ok": parameters is not a valid JSON Schema/);
  });

  it("offers an active plugin's tools, runs them in its sandbox through the loop, and gives the model the CPU limit's error", async () => {
    const plugin = await installPlugin(TOOLS_PLUGIN, { hours: { oslo: '9-17' } });
    let available = await stack.client.get(`${base()}/tools/available`, { token: owner.token });
    expect(available.body.filter((t: { origin: string }) => t.origin === 'plugin')).toEqual([]);
    expect((await plugin.activate()).status).toBe(200);

    available = await stack.client.get(`${base()}/tools/available`, { token: owner.token });
    expect(available.status).toBe(200);
    expect(available.body.filter((t: { origin: string }) => t.origin === 'plugin').map((t: { name: string; available: boolean }) => [t.name, t.available])).toEqual([
      ['opening_hours', true],
      ['spin', true],
      ['echo', true],
    ]);
    const agent = await stack.client.put(`${base()}/agent`, { enabledTools: ['opening_hours', 'spin', 'echo'] }, { token: owner.token });
    expect(agent.status).toBe(200);

    const result = await turn('[[call opening_hours {"city":"Oslo"}]] [[call opening_hours {"city":"Rome"}]] [[call spin {}]]', agent.body.enabledTools);
    expect(result.turns.filter((t) => t.role === 'tool').map((t) => [t.content, (t as { isError?: boolean }).isError])).toEqual([
      ['{"city":"Oslo","hours":"9-17"}', false],
      [expect.stringMatching(/^Error: .*no store in Rome/), true],
      ['Error: the tool ran past its CPU time limit', true],
    ]);
    expect(result.content).toContain('opening_hours returned: {"city":"Oslo","hours":"9-17"}');
    expect(result.content).toContain('spin returned: Error: the tool ran past its CPU time limit');
  });

  it('passes hostile arguments to a plugin tool only as a JSON copy, after the schema', async () => {
    const result = await turn('[[call echo {"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}]] [[call opening_hours {"city":"x","admin":true}]]', ['echo', 'opening_hours']);
    const [echo, refused] = result.turns.filter((t) => t.role === 'tool');
    expect(JSON.parse(echo!.content)).toMatchObject({ polluted: false });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(refused).toMatchObject({ isError: true, content: expect.stringMatching(/must NOT have additional properties/) });
  });

  it('connects an MCP server with a sealed token, lists and refreshes its tools, and never answers the token', async () => {
    const created = await stack.client.post(
      `${base()}/mcp-servers`,
      { name: 'docs', url: mcp.url, headers: { Authorization: 'Bearer {{secrets.TOKEN}}' }, secrets: { TOKEN: MCP_TOKEN } },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'docs', transport: 'auto', connectedWith: 'streamable-http', secretNames: ['TOKEN'], headerNames: ['Authorization'], lastError: null });
    // Header values are write-only, the template as much as a pasted value.
    expect(created.body.headers).toBeUndefined();
    expect(created.text).not.toContain('{{secrets.TOKEN}}');
    expect(created.body.tools.map((t: { exposedAs: string }) => t.exposedAs)).toEqual(['docs_add', 'docs_whoami', 'docs_wait', 'docs_fail']);
    expect(mcp.authorizations).toContain(`Bearer ${MCP_TOKEN}`);
    const id = created.body.id;

    mcp.extraTools.push('search');
    const refreshed = await stack.client.post(`${base()}/mcp-servers/${id}/refresh`, undefined, { token: owner.token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.tools.map((t: { name: string }) => t.name)).toContain('search');

    const available = await stack.client.get(`${base()}/tools/available`, { token: owner.token });
    expect(available.body.filter((t: { origin: string }) => t.origin === 'mcp').map((t: { name: string }) => t.name)).toEqual(['docs_add', 'docs_whoami', 'docs_wait', 'docs_fail', 'docs_search']);
    // A name is the application's once: its own tool keeps it, the server's tool of that name is listed, not offered.
    const own = await stack.client.post(`${base()}/tools`, { name: 'docs_wait', description: 'Searches', source: { type: 'builtin', builtin: 'search_knowledge' } }, { token: owner.token });
    const clash = (await stack.client.get(`${base()}/tools/available`, { token: owner.token })).body.filter((t: { name: string }) => t.name === 'docs_wait');
    expect(clash.map((t: { origin: string; available: boolean; reason?: string }) => [t.origin, t.available, t.reason])).toEqual([
      ['application', true, undefined],
      ['mcp', false, "the name docs_wait is already taken by one of the application's own tools"],
    ]);
    await stack.client.delete(`${base()}/tools/${own.body.id}`, { token: owner.token });
    await stack.client.put(`${base()}/agent`, { enabledTools: ['docs_add', 'docs_whoami'] }, { token: owner.token });
    const result = await turn('[[call docs_add {"a":20,"b":22}]] [[call docs_whoami {}]]', ['docs_add', 'docs_whoami']);
    expect(result.turns.filter((t) => t.role === 'tool').map((t) => t.content)).toEqual(['42', 'you sent [secret]']);

    for (const res of [created, refreshed, available, await stack.client.get(`${base()}/mcp-servers`, { token: owner.token }), await stack.client.get(`${base()}/mcp-servers/${id}`, { token: owner.token })]) {
      expect(res.text).not.toContain(MCP_TOKEN);
    }
    // Another user's application and server: 404, as everywhere.
    expect((await stack.client.get(`${base()}/mcp-servers/${id}`, { token: other.token })).status).toBe(404);
    expect((await stack.client.post(`${base()}/mcp-servers/${id}/refresh`, undefined, { token: other.token })).status).toBe(404);
    expect((await stack.client.get(`/api/applications/${other.app.id}/mcp-servers/${id}`, { token: other.token })).status).toBe(404);

    // A token pasted straight into a header value: sealed, answered as set, sent, and scrubbed like a secret.
    const pasted = await stack.client.put(`${base()}/mcp-servers/${id}`, { headers: { 'X-Docs-Key': PASTED_KEY, authorization: `Bearer ${PASTED_KEY}` } }, { token: owner.token });
    expect(pasted.status).toBe(200);
    expect(pasted.body.headerNames).toEqual(['X-Docs-Key', 'authorization']);
    expect(mcp.authorizations).toContain(`Bearer ${PASTED_KEY}`);
    const [row] = await resolve(stack.core.container, TOKENS.DataSource).query(`SELECT * FROM mcp_servers WHERE id = $1`, [id]);
    expect(JSON.stringify(row)).not.toContain(PASTED_KEY);
    expect(JSON.stringify(row)).not.toContain('{{secrets.TOKEN}}');
    const whoami = await turn('[[call docs_whoami {}]]', ['docs_add', 'docs_whoami']);
    expect(whoami.turns.filter((t) => t.role === 'tool').map((t) => t.content)).toEqual(['you sent [secret]']);
    // Null removes a header; the rest stay set.
    const removed = await stack.client.put(`${base()}/mcp-servers/${id}`, { headers: { 'X-Docs-Key': null } }, { token: owner.token });
    expect(removed.body.headerNames).toEqual(['authorization']);
    for (const res of [pasted, removed, await stack.client.get(`${base()}/mcp-servers`, { token: owner.token }), await stack.client.get(`${base()}/mcp-servers/${id}`, { token: owner.token })]) {
      expect(res.text).not.toContain(PASTED_KEY);
    }

    const renamed = await stack.client.put(`${base()}/mcp-servers/${id}`, { name: 'kb', timeoutMs: 2000 }, { token: owner.token });
    expect(renamed.body.tools[0].exposedAs).toBe('kb_add');
    expect((await stack.client.delete(`${base()}/mcp-servers/${id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get(`${base()}/tools/available`, { token: owner.token })).body.some((t: { origin: string }) => t.origin === 'mcp')).toBe(false);
  });

  it('runs a workflow marked as a tool through the loop and answers its output', async () => {
    const wf = await stack.client.post('/api/workflows', { applicationId: owner.app.id, name: 'Greeter', steps: [{ id: 'greet', kind: 'template', text: 'Hello {{input.name}}' }] }, { token: owner.token });
    expect(wf.status).toBe(201);
    const tool = await stack.client.post(
      `${base()}/tools`,
      { name: 'greet', description: 'Greets someone', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, source: { type: 'builtin', builtin: 'run_workflow', workflowId: wf.body.id } },
      { token: owner.token },
    );
    expect(tool.status).toBe(201);
    const result = await turn('[[call greet {"name":"Ada"}]]', ['greet']);
    const [answer] = result.turns.filter((t) => t.role === 'tool');
    expect(answer).toMatchObject({ isError: false });
    expect(JSON.parse(answer!.content)).toMatchObject({ status: 'completed', error: null });
    expect(answer!.content).toContain('Hello Ada');
    await stack.client.delete(`${base()}/tools/${tool.body.id}`, { token: owner.token });
  });

  it.each([
    ['url', { name: 'meta', url: 'http://169.254.169.254/mcp' }, /private or reserved address/],
    ['url', { name: 'files', url: 'file:///etc/passwd' }, /http/],
    ['url', { name: 'creds', url: 'https://user:pw@mcp.example.com/mcp' }, /credentials/],
    ['name', { name: 'has space', url: 'https://mcp.example.com/mcp' }, /name must be/],
    ['transport', { name: 'x', url: 'https://mcp.example.com/mcp', transport: 'websocket' }, /transport must be one of/],
    ['headers.Authorization', { name: 'x', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer {{secrets.NOPE}}' } }, /NOPE/],
    ['headers.Cookie', { name: 'x', url: 'https://mcp.example.com/mcp', headers: { Cookie: 'a=b' } }, /may not be set/],
  ])('refuses a server with a bad %s (400 naming it), connecting nowhere', async (field, body, message) => {
    const res = await stack.client.post(`${base()}/mcp-servers`, body, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe(field);
    expect(res.body.details[0].message).toMatch(message);
  });

  it('keeps a server that does not answer yet, with the reason, and answers 502 on refresh', async () => {
    const closed = await startStreamableMcp();
    const url = closed.url;
    await closed.close();
    const created = await stack.client.post(`${base()}/mcp-servers`, { name: 'later', url }, { token: owner.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tools: [], lastError: 'the server could not be reached' });
    const refresh = await stack.client.post(`${base()}/mcp-servers/${created.body.id}/refresh`, undefined, { token: owner.token });
    expect(refresh.status).toBe(502);
    expect(refresh.body.message).toMatch(/could not be reached/);
  });
});
