import { TOOL_TOKENS } from '../../../apps/core-api/modules/tools.tokens';
import { resolve } from '../../../apps/shared/tokens';
import type { Tool } from '../../../core/tools/domain/tool';
import { startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';

/**
 * Issue 44 (4): what a save accepts, the call accepts. The operator allows 127.0.0.0/8 and not http:, so
 * `https://127.0.0.1:1/…` passes the rules (and fails only to connect) while http:, other private
 * ranges, credentials and a host outside an http tool's allowed hosts are refused: at save, with the
 * reason, for http tools, MCP servers and webhooks alike, and by the call with that same reason.
 */
const ALLOWED = 'https://127.0.0.1:1/v1/now';

const REFUSED: Array<[string, string, RegExp]> = [
  ['http:, which the operator has not allowed', 'http://127.0.0.1:1/v1/now', /must use https \(this platform calls http addresses only where its operator allows them/],
  ['a private range the operator has not allowed', 'https://10.0.0.1/v1/now', /private or reserved address.*operator can allow a private network range/],
  ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/', /private or reserved address/],
  ['IPv6 loopback', 'https://[::1]/v1/now', /private or reserved address/],
  ['credentials in the URL', 'https://user:pw@127.0.0.1:1/v1/now', /must not carry credentials/],
  ['a scheme no call speaks', 'ftp://127.0.0.1/v1/now', /must use https/],
];

describe('outbound URLs: a save applies the rules the call applies', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof userWithApplication>>;

  beforeAll(async () => {
    stack = await startCoreApi({ env: { WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' } });
    owner = await userWithApplication(stack.client);
  });
  afterAll(() => stack?.close());

  const tools = () => `/api/applications/${owner.app.id}/tools`;
  const httpTool = (url: string, allowedHosts?: string[]) => ({
    name: `t${Math.random().toString(36).slice(2, 10)}`,
    description: 'The weather now',
    source: { type: 'http', method: 'GET', url, ...(allowedHosts ? { allowedHosts } : {}) },
    timeoutMs: 2000,
  });

  /** What the http tool runner the chat turns use answers for a tool of this source (never saved). */
  async function call(url: string, allowedHosts: string[] = []): Promise<string> {
    const runner = resolve(stack.core.container, TOOL_TOKENS.Runners).runnerFor({ type: 'http', method: 'GET', url, headers: {}, allowedHosts })!;
    const tool = { id: owner.app.id, name: 'probe', source: { type: 'http', method: 'GET', url, headers: {}, allowedHosts }, secretsSealed: {}, timeoutMs: 2000 } as unknown as Tool;
    return runner.run(tool, {}, { applicationId: owner.app.id, ownerId: owner.user.id, signal: new AbortController().signal }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
  }

  it.each(REFUSED)('refuses %s at the save of an http tool, with the reason the call gives', async (_what, url, reason) => {
    const created = await stack.client.post(tools(), httpTool(url), { token: owner.token });
    expect([created.status, created.body.details?.[0]?.path]).toEqual([400, 'source.url']);
    expect(created.body.message).toMatch(reason);
    expect(await call(url)).toMatch(reason);

    // A change to such a URL is refused the same way, and the saved tool keeps its own.
    const saved = await stack.client.post(tools(), httpTool(ALLOWED), { token: owner.token });
    expect(saved.status).toBe(201);
    const changed = await stack.client.put(`${tools()}/${saved.body.id}`, { source: { type: 'http', method: 'GET', url } }, { token: owner.token });
    expect([changed.status, changed.body.details?.[0]?.path]).toEqual([400, 'source.url']);
    expect(changed.body.message).toMatch(reason);
    expect((await stack.client.get(`${tools()}/${saved.body.id}`, { token: owner.token })).body.source.url).toBe(ALLOWED);
  });

  it('refuses an http tool whose allowed hosts leave out its own host, which every call would refuse', async () => {
    const created = await stack.client.post(tools(), httpTool(ALLOWED, ['api.example.com']), { token: owner.token });
    expect([created.status, created.body.details?.[0]?.path]).toEqual([400, 'source.allowedHosts']);
    expect(created.body.message).toMatch(/does not hold 127\.0\.0\.1, the host of source\.url/);
    expect(await call(ALLOWED, ['api.example.com'])).toBe('the tool may not reach 127.0.0.1');
  });

  it('saves an http tool whose URL the call accepts (the call then fails only to connect)', async () => {
    for (const [url, allowedHosts] of [[ALLOWED, undefined], [ALLOWED, ['127.0.0.1']], ['https://api.weather.example/v1/now?city={{args.city}}', undefined]] as const) {
      const created = await stack.client.post(tools(), httpTool(url, allowedHosts ? [...allowedHosts] : undefined), { token: owner.token });
      expect([url, created.status]).toEqual([url, 201]);
      // A name that does not resolve (yet) has no address to judge: saved, and its call cannot connect.
      expect([url, await call(url.replace('{{args.city}}', 'Paris'), allowedHosts ? [...allowedHosts] : [])]).toEqual([url, 'the endpoint could not be reached']);
    }
  });

  it.each(REFUSED)('refuses %s at the save of an MCP server and of a webhook', async (_what, url, reason) => {
    const server = await stack.client.post(`/api/applications/${owner.app.id}/mcp-servers`, { name: 'remote', url, timeoutMs: 1000 }, { token: owner.token });
    expect([server.status, server.body.details?.[0]?.path]).toEqual([400, 'url']);
    expect(server.body.message).toMatch(reason);
    const hook = await stack.client.post('/api/webhooks', { url, events: ['message.completed'] }, { token: owner.token });
    expect([hook.status, hook.body.details?.[0]?.path]).toEqual([400, 'url']);
    expect(hook.body.message).toMatch(reason);
  });

  it('saves an MCP server and a webhook whose URL their calls accept', async () => {
    const server = await stack.client.post(`/api/applications/${owner.app.id}/mcp-servers`, { name: 'allowed', url: ALLOWED, timeoutMs: 1000 }, { token: owner.token });
    expect(server.status).toBe(201);
    // Its listing went through the rules and only failed to connect.
    expect(server.body.lastError).not.toMatch(/private or reserved|must use https|credentials/);
    const hook = await stack.client.post('/api/webhooks', { url: ALLOWED, events: ['message.completed'] }, { token: owner.token });
    expect(hook.status).toBe(201);
  });
});
