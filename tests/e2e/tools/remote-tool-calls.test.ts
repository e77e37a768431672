import { startStreamableMcp, type LocalMcp } from '../../support/local-mcp-servers';
import { aPlugin } from '../../support/plugins/plugin-examples';
import { paidUserWithApplication, startCoreApi, type TestStack } from '../../support/test-stack';

const PLUGIN = `definePlugin({ tools: [{ name: 'greet', description: 'Greets someone', handler: async ({ who }) => ({ hello: who }) }] });`;

/** The AI service apart from the core API: the calls it cannot run itself run in the core API (docs/tools.md). */
describe('tool calls of a turn in the AI service, run in the core API', () => {
  let stack: TestStack;
  let mcp: LocalMcp;
  let owner: Awaited<ReturnType<typeof paidUserWithApplication>>;

  beforeAll(async () => {
    [stack, mcp] = await Promise.all([
      startCoreApi({ providers: true, engine: 'remote', env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' } }),
      startStreamableMcp(),
    ]);
    owner = await paidUserWithApplication(stack);
    const base = `/api/applications/${owner.app.id}`;
    expect((await stack.client.post(`${base}/mcp-servers`, { name: 'docs', url: mcp.url }, { token: owner.token })).status).toBe(201);
    const plugin = await stack.client.post('/api/plugins', aPlugin(PLUGIN), { token: owner.token });
    expect(plugin.status).toBe(201);
    const installed = await stack.client.post(`${base}/plugins`, { pluginId: plugin.body.id }, { token: owner.token });
    expect(installed.status).toBe(201);
    expect((await stack.client.put(`${base}/plugins/${installed.body.id}/activate`, undefined, { token: owner.token })).status).toBe(200);
    expect((await stack.client.put(`${base}/agent`, { enabledTools: ['docs_add', 'greet'] }, { token: owner.token })).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
    await mcp?.close();
  });

  it('runs MCP and plugin tools of a turn in the AI service through the core API, and their results reach the answer', async () => {
    expect(stack.ai).toBeDefined();
    const id = (await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token })).body.id as string;
    const res = await stack.client.post(`/api/conversations/${id}/messages`, { content: 'Add them [[call docs_add {"a":20,"b":22}]] [[call greet {"who":"Ada"}]]', provider: 'provider_a' }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.toolCalls.map((c: { name: string; isError: boolean }) => [c.name, c.isError])).toEqual([['docs_add', false], ['greet', false]]);
    expect(res.body.message.content).toContain('docs_add returned: 42');
    expect(res.body.message.content).toContain('greet returned: {"hello":"Ada"}');
  });

  it('guards /internal/tools/run with the AI service token and answers bad input with 4xx', async () => {
    const body = { applicationId: owner.app.id, ownerId: owner.user.id, name: 'docs_add', arguments: { a: 1, b: 2 } };
    const token = stack.config.aiServiceToken;
    expect((await stack.client.post('/internal/tools/run', body)).status).toBe(401);
    expect((await stack.client.post('/internal/tools/run', body, { token: `${token}x` })).status).toBe(401);
    // A user's own session is no service token.
    expect((await stack.client.post('/internal/tools/run', body, { token: owner.token })).status).toBe(401);

    const ok = await stack.client.post('/internal/tools/run', body, { token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ content: '3', isError: false });
    expect((await stack.client.post('/internal/tools/run', { ...body, arguments: 'x' }, { token })).status).toBe(400);
    expect((await stack.client.post('/internal/tools/run', { ...body, applicationId: 'nope' }, { token })).status).toBe(400);
    expect((await stack.client.post('/internal/tools/run', { ...body, name: 'no_such_tool' }, { token })).status).toBe(404);
    // The tool is the application owner's: another owner id finds nothing.
    expect((await stack.client.post('/internal/tools/run', { ...body, ownerId: '00000000-0000-4000-8000-000000000000' }, { token })).status).toBe(404);
  });
});
