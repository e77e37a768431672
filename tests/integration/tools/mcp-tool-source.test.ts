import { randomBytes, randomUUID } from 'node:crypto';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm.secret-box';
import { OpenAiLlmProvider } from '../../../adapters/providers/openai-llm.provider';
import { AjvJsonSchemaChecker } from '../../../adapters/tools/ajv.json-schema-checker';
import { SdkMcpClient } from '../../../adapters/tools/sdk.mcp-client';
import { ssrfSafeFetch } from '../../../adapters/tools/ssrf-safe.fetch';
import { SsrfSafeWebhookSender, type LookupFunction } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { mcpHeaderAad, mcpSecretAad, type McpServer } from '../../../core/tools/domain/mcp-server';
import { defaultAgentSettings } from '../../../core/tools/domain/agent-settings';
import type { McpServerChange, McpServerRepository, NewMcpServer } from '../../../core/tools/ports/mcp-server-repository.port';
import { McpUnreachable } from '../../../core/tools/ports/mcp-client.port';
import { ToolFailure } from '../../../core/tools/ports/tool-runner.port';
import { McpTools, refreshMcpTools } from '../../../core/tools/use-cases/mcp-tools';
import { runToolLoop, type ToolLoopResult } from '../../../core/tools/use-cases/tool-loop';
import { KeyedToolRunners } from '../../../core/tools/use-cases/tool-runners';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';
import { startSseMcp, startStreamableMcp, type LocalMcp } from '../../support/local-mcp-servers';

const TOKEN = `mcp_${randomBytes(12).toString('hex')}`;
const box = new AesGcmSecretBox({ key: randomBytes(32).toString('hex') });
const schemas = new AjvJsonSchemaChecker();

/** `evil.example` resolves to loopback, `metadata.example` to the cloud metadata address. */
const lookup = ((host: string, options: unknown, callback: (e: Error | null, a: unknown, f?: number) => void) => {
  const address = ({ 'evil.example': '127.0.0.1', 'metadata.example': '169.254.169.254' } as Record<string, string>)[host];
  if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), undefined);
  const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
  return all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);
}) as unknown as LookupFunction;

/** The platform's client; `allowLoopback` is what an operator's WEBHOOKS_ALLOWED_PRIVATE_CIDRS does (the test servers are local). */
function client(allowLoopback: boolean) {
  const rules = { allowHttp: true, allowedPrivateCidrs: allowLoopback ? ['127.0.0.0/8'] : [], lookup };
  const urlCheck = new SsrfSafeWebhookSender(rules);
  return new SdkMcpClient({ fetch: ssrfSafeFetch({ ...rules, urlCheck }), urlCheck, clientName: 'platform-test', clientVersion: '1.0.0' });
}

/** The servers of one application, kept in memory (the SQL repository is exercised over HTTP in the e2e test). */
class MemoryServers implements McpServerRepository {
  readonly rows = new Map<string, McpServer>();
  async create(s: NewMcpServer) {
    const row = { ...s, createdAt: new Date(), updatedAt: new Date() };
    this.rows.set(s.id, row);
    return row;
  }
  async findById(id: string) {
    return this.rows.get(id) ?? null;
  }
  async listByApplication(applicationId: string) {
    return [...this.rows.values()].filter((s) => s.applicationId === applicationId);
  }
  async update(id: string, c: McpServerChange) {
    const row = this.rows.get(id);
    if (!row) return null;
    const next = { ...row, ...Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)), ...(Object.hasOwn(c, 'lastError') ? { lastError: c.lastError ?? null } : {}), updatedAt: new Date() } as McpServer;
    this.rows.set(id, next);
    return next;
  }
  async delete(id: string) {
    return this.rows.delete(id);
  }
}

function aServer(url: string, overrides: Partial<McpServer> = {}): McpServer {
  const id = randomUUID();
  return {
    id,
    ownerId: 'owner-1',
    applicationId: 'app-1',
    name: 'docs',
    url,
    transport: 'auto',
    headersSealed: { Authorization: box.seal('Bearer {{secrets.TOKEN}}', mcpHeaderAad(id, 'Authorization')) },
    secretsSealed: { TOKEN: box.seal(TOKEN, mcpSecretAad(id, 'TOKEN')) },
    timeoutMs: 5_000,
    tools: [],
    connectedWith: null,
    toolsRefreshedAt: null,
    lastError: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

const context = () => ({ applicationId: 'app-1', ownerId: 'owner-1', signal: new AbortController().signal });

describe('remote MCP servers as a tool source', () => {
  let streamable: LocalMcp;
  let sse: LocalMcp;
  let emulator: Emulator;

  beforeAll(async () => {
    [streamable, sse, emulator] = await Promise.all([startStreamableMcp(), startSseMcp(), startEmulator()]);
  });
  afterAll(async () => {
    await Promise.all([streamable.close(), sse.close(), emulator.close()]);
  });

  async function connected(url: string, overrides: Partial<McpServer> = {}) {
    const servers = new MemoryServers();
    const deps = { servers, client: client(true), schemas, secretBox: box };
    const { server, failed } = await refreshMcpTools(deps, await servers.create(aServer(url, overrides)));
    return { servers, deps, server, failed, tools: new McpTools(deps) };
  }

  it('lists a Streamable HTTP server’s tools with the sealed token as its header, and caches them', async () => {
    const { server, failed, tools } = await connected(streamable.url);
    expect(failed).toBe(false);
    expect(server.connectedWith).toBe('streamable-http');
    expect(server.tools.map((t) => t.name)).toEqual(['add', 'whoami', 'wait', 'fail']);
    expect(server.tools[0]!.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
    expect(server.tools[0]!.inputSchema.$schema).toBeUndefined();
    expect(streamable.authorizations).toContain(`Bearer ${TOKEN}`);
    const offered = await tools.toolsOf('app-1');
    expect(offered.map((o) => o.tool.name)).toEqual(['docs_add', 'docs_whoami', 'docs_wait', 'docs_fail']);
    expect(JSON.stringify(offered)).not.toContain(TOKEN);
  });

  it('sends a token pasted straight into a header value (sealed like every header), and scrubs it from what the model reads', async () => {
    const pasted = 'pasted-token-0123456789';
    const id = randomUUID();
    const headersSealed = { Authorization: box.seal(`Bearer ${pasted}`, mcpHeaderAad(id, 'Authorization')) };
    const { failed, tools } = await connected(streamable.url, { id, headersSealed, secretsSealed: {} });
    expect(failed).toBe(false);
    expect(streamable.authorizations).toContain(`Bearer ${pasted}`);
    const whoami = (await tools.toolsOf('app-1')).find((o) => o.tool.name === 'docs_whoami')!.tool;
    expect(await tools.run(whoami, {}, context())).toBe('you sent [secret]');
  });

  it('falls back to the SSE transport for a server that only speaks it, and calls a tool over it', async () => {
    const { server, tools } = await connected(sse.url);
    expect(server.lastError).toBeNull();
    expect(server.connectedWith).toBe('sse');
    const add = (await tools.toolsOf('app-1')).find((o) => o.tool.name === 'docs_add')!.tool;
    expect(await tools.run(add, { a: 2, b: 40 }, context())).toBe('42');
  });

  it('lists tools added since the last listing when refreshed', async () => {
    const { deps, server } = await connected(streamable.url);
    streamable.extraTools.push('search_orders');
    try {
      const { server: refreshed } = await refreshMcpTools(deps, server);
      expect(refreshed.tools.map((t) => t.name)).toContain('search_orders');
    } finally {
      streamable.extraTools.length = 0;
    }
  });

  it('runs the server’s tools through the turn loop, scrubbing its credentials from what the model reads', async () => {
    const { tools } = await connected(streamable.url);
    const offered = (await tools.toolsOf('app-1')).map((o) => o.tool);
    const loop = runToolLoop(
      { schemas, runners: new KeyedToolRunners().register('mcp', tools) },
      {
        provider: new OpenAiLlmProvider({ baseUrl: emulator.baseUrls.provider_a, timeoutMs: 5_000 }),
        request: {
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: '[[call docs_add {"a":2,"b":3}]] [[call docs_whoami {}]] [[call docs_fail {}]] [[call docs_add {"a":"two"}]]' }],
          settings: { temperature: 0, maxTokens: 500, topP: 1 },
          apiKey: 'sk-test-a-1234',
        },
        tools: offered,
        settings: { ...defaultAgentSettings(), enabledTools: offered.map((t) => t.name) },
        applicationId: 'app-1',
        ownerId: 'owner-1',
      },
    );
    let next = await loop.next();
    while (!next.done) next = await loop.next();
    const result = next.value as ToolLoopResult;
    expect(result.turns.filter((t) => t.role === 'tool').map((t) => [t.content, (t as { isError?: boolean }).isError])).toEqual([
      ['5', false],
      ['you sent [secret]', false],
      ['Error: the order does not exist', true],
      // Hostile arguments stop at the schema the server listed: the server is never asked.
      [expect.stringMatching(/^Error: the arguments do not match the tool's schema: .*\/a must be number/), true],
    ]);
    expect(result.content).toContain('docs_add returned: 5');
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('cuts a remote tool that never answers at its timeout', async () => {
    const { tools } = await connected(streamable.url, { timeoutMs: 300 });
    const wait = (await tools.toolsOf('app-1')).find((o) => o.tool.name === 'docs_wait')!.tool;
    await expect(tools.run(wait, {}, context())).rejects.toThrow(new ToolFailure('the server did not answer within 300 ms'));
  });

  it.each([
    ['a loopback address', () => streamable.url],
    ['a name resolving to loopback', () => streamable.url.replace('127.0.0.1', 'evil.example')],
    ['the metadata address', () => 'http://169.254.169.254/mcp'],
    ['a name resolving to the metadata address', () => 'http://metadata.example/mcp'],
  ])('refuses %s with no connection made, in listing and in calls', async (_what, url) => {
    const before = streamable.connections;
    const strict = client(false);
    expect(await strict.problemWith(url())).toMatch(/private or reserved address/);
    const listing = strict.listTools({ url: url(), transport: 'auto', headers: { Authorization: `Bearer ${TOKEN}` }, timeoutMs: 2_000 });
    await expect(listing).rejects.toThrow(McpUnreachable);
    await expect(listing).rejects.toThrow(/private or reserved address/);
    await expect(strict.callTool({ url: url(), transport: 'sse', headers: {}, timeoutMs: 2_000 }, 'add', { a: 1, b: 1 })).rejects.toThrow(/private or reserved address/);
    expect(streamable.connections).toBe(before);
  });
});
