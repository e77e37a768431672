import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startCoreApi, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, createKey } from '../public-api/public-api-support';

/** The SDK's own client, connected to the platform with one URL and one key. */
async function connect(stack: TestStack, key: string, headers: Record<string, string> = {}, auth: 'x-api-key' | 'bearer' = 'x-api-key'): Promise<Client> {
  const keyHeader: Record<string, string> = auth === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key };
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.listening.url}/api/v1/mcp`), { requestInit: { headers: { ...keyHeader, ...headers } } });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const textOf = (result: any): string => result.content.map((c: { text?: string }) => c.text ?? '').join('');

describe('every application as an MCP server (/api/v1/mcp)', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  const clients: Client[] = [];
  const open = async (...args: Parameters<typeof connect>) => {
    const client = await connect(...args);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true });
    owner = await anOwnerWithKey(stack);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await stack?.close();
  });

  it('lists chat and search_knowledge, and answers a chat call through the public chat path', async () => {
    const client = await open(stack, owner.key.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['chat', 'search_knowledge']);
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['message'] });
    const answer = await client.callTool({ name: 'chat', arguments: { message: 'Hello from an agent' } });
    expect(answer.isError).toBe(false);
    expect(textOf(answer)).toContain('Echo: Hello from an agent');
    const conversationId = /conversationId: ([0-9a-f-]{36})/.exec(textOf(answer))![1]!;
    const again = await client.callTool({ name: 'chat', arguments: { message: 'And again', conversationId } });
    expect(textOf(again)).toContain('Echo: And again');
    const conversation = await stack.client.get(`/api/conversations/${conversationId}`, { token: owner.token });
    expect(conversation.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('takes the key as a bearer token too', async () => {
    const client = await open(stack, owner.key.key, {}, 'bearer');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('offers the workflows marked as tools, and runs one', async () => {
    const wf = await stack.client.post('/api/workflows', { applicationId: owner.app.id, name: 'Greeter', steps: [{ id: 'greet', kind: 'template', text: 'Hello {{input.name}}' }] }, { token: owner.token });
    expect(wf.status).toBe(201);
    const tool = await stack.client.post(
      `/api/applications/${owner.app.id}/tools`,
      { name: 'greet', description: 'Greets someone by name', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, source: { type: 'builtin', builtin: 'run_workflow', workflowId: wf.body.id } },
      { token: owner.token },
    );
    expect(tool.status).toBe(201);
    const client = await open(stack, owner.key.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['chat', 'search_knowledge', 'greet']);
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    const run = JSON.parse(textOf(result));
    expect(run).toMatchObject({ status: 'completed', error: null });
    expect(JSON.stringify(run.output)).toContain('Hello Ada');
  });

  it('answers an unknown tool as an error result', async () => {
    const client = await open(stack, owner.key.key);
    const result = await client.callTool({ name: 'drop_database', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('There is no tool named drop_database');
  });

  it('refuses a wrong key with 401 and another application with 403, before any MCP exchange', async () => {
    await expect(connect(stack, 'ak_wrong_key_0000000000000000')).rejects.toThrow(/401/);
    const raw = await fetch(`${stack.listening.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'X-API-Key': 'nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });

    const other = await anOwnerWithKey(stack);
    // owner's key naming another owner's application, and an all-applications key naming none.
    await expect(connect(stack, owner.key.key, { 'X-Application-Id': other.app.id })).rejects.toThrow(/403/);
    const allKey = await createKey(stack.client, owner.token, { applicationId: null });
    await expect(connect(stack, allKey.key, { 'X-Application-Id': other.app.id })).rejects.toThrow(/403/);
    await expect(connect(stack, allKey.key)).rejects.toThrow(/400/);
    const named = await open(stack, allKey.key, { 'X-Application-Id': owner.app.id });
    expect((await named.listTools()).tools[0]!.name).toBe('chat');
  });

  it("enforces the key's rate limit", async () => {
    const limited = await anOwnerWithKey(stack, { rateLimit: 10 });
    const client = await open(stack, limited.key.key);
    let refused: unknown;
    for (let i = 0; i < 12 && !refused; i++) await client.listTools().catch((e: unknown) => (refused = e));
    expect(String(refused)).toMatch(/429/);
  });

  it('refuses what is not one JSON-RPC message for an MCP client with the platform error body', async () => {
    const post = (body: unknown, accept = 'application/json, text/event-stream') =>
      fetch(`${stack.listening.url}/api/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept, 'X-API-Key': owner.key.key }, body: JSON.stringify(body) });
    const cases: Array<[unknown, string, number]> = [
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'application/json', 406],
      [{ jsonrpc: '1.0', id: 1, method: 'tools/list' }, 'application/json, text/event-stream', 400],
      [{ jsonrpc: '2.0', id: { x: 1 }, method: 'tools/list' }, 'application/json, text/event-stream', 400],
      [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: ['chat'] }, 'application/json, text/event-stream', 400],
    ];
    for (const [body, accept, status] of cases) {
      const res = await post(body, accept);
      expect([res.status, await res.json()]).toEqual([status, expect.objectContaining({ statusCode: status, message: expect.any(String), error: expect.any(String) })]);
    }
  });

  it('answers GET and DELETE with 405 (stateless: no sessions, no server stream)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${stack.listening.url}/api/v1/mcp`, { method, headers: { 'X-API-Key': owner.key.key } });
      expect(res.status).toBe(405);
      expect(await res.json()).toMatchObject({ statusCode: 405 });
    }
  });
});
