import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm.secret-box';
import { SsrfSafeHttpToolRunner } from '../../../adapters/tools/ssrf-safe.http-tool-runner';
import type { LookupFunction } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { SsrfSafeWebhookSender } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { SsrfSafeWorkflowHttp } from '../../../adapters/workflows/ssrf-safe.workflow-http';
import { toolSecretAad, type Tool, type ToolSource } from '../../../core/tools/domain/tool';
import { ToolFailure } from '../../../core/tools/ports/tool-runner.port';

const SECRET = `tok_${randomBytes(12).toString('hex')}`;
const box = new AesGcmSecretBox({ key: randomBytes(32).toString('hex') });

/** `evil.example` resolves to loopback, `metadata.example` to the cloud metadata address; the rest as the system says. */
const lookup = ((host: string, options: unknown, callback: (e: Error | null, a: unknown) => void) => {
  const table: Record<string, string> = { 'evil.example': '127.0.0.1', 'metadata.example': '169.254.169.254' };
  const address = table[host] ?? (host === 'localhost' ? '127.0.0.1' : undefined);
  if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), undefined);
  const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
  return all ? callback(null, [{ address, family: 4 }]) : (callback as (e: null, a: string, f: number) => void)(null, address, 4);
}) as unknown as LookupFunction;

function runnerWith(allowedPrivateCidrs: string[]) {
  const rules = { allowHttp: true, allowedPrivateCidrs, lookup };
  return new SsrfSafeHttpToolRunner(new SsrfSafeWorkflowHttp({ ...rules, urlCheck: new SsrfSafeWebhookSender(rules) }), box);
}

function httpTool(url: string, extra: Partial<Extract<ToolSource, { type: 'http' }>> = {}): Tool {
  const id = randomUUID();
  return {
    id,
    ownerId: 'owner-1',
    applicationId: 'app-1',
    name: 'lookup',
    description: 'Looks a thing up',
    parameters: { type: 'object' },
    source: { type: 'http', method: 'POST', url, headers: { Authorization: 'Bearer {{secrets.TOKEN}}' }, allowedHosts: [], ...extra },
    timeoutMs: 2_000,
    secretsSealed: { TOKEN: box.seal(SECRET, toolSecretAad(id, 'TOKEN')) },
    createdAt: new Date(),
    updatedAt: new Date(),
  };
}

const context = () => ({ applicationId: 'app-1', ownerId: 'owner-1', signal: new AbortController().signal });

describe('http tools through the SSRF-safe client', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ temperature: 21, echoedPath: req.url }));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    connections = 0;
    seen.length = 0;
  });

  it.each([
    ['a loopback address', () => `http://127.0.0.1:${port}/weather`],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a name resolving to loopback', () => `http://evil.example:${port}/weather`],
    ['localhost', () => `http://localhost:${port}/weather`],
    ['a name resolving to the metadata address', () => 'http://metadata.example/latest/meta-data/'],
  ])('refuses %s, making no connection', async (_what, url) => {
    const error = await runnerWith([]).run(httpTool(url()), { city: 'Oslo' }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolFailure);
    expect((error as Error).message).toMatch(/private or reserved address|may not reach/);
    expect((error as Error).message).not.toContain(SECRET);
    expect(connections).toBe(0);
  });

  it('refuses a host outside the allowed ones, whatever the arguments hold', async () => {
    const tool = httpTool(`http://evil.example:${port}/x?q={{args.q}}`, { allowedHosts: ['api.example.com'] });
    const error = await runnerWith(['127.0.0.0/8']).run(tool, { q: 'http://169.254.169.254/' }, context()).catch((e: unknown) => e);
    expect((error as Error).message).toBe('the tool may not reach evil.example');
    expect(connections).toBe(0);
  });

  it('calls an allowed endpoint with the arguments, opening the secret for the header alone', async () => {
    // The operator allowed the loopback range (WEBHOOKS_ALLOWED_PRIVATE_CIDRS), as a test server needs.
    const tool = httpTool(`http://127.0.0.1:${port}/weather/{{args.city}}?unit={{args.unit}}`);
    const output = await runnerWith(['127.0.0.0/8']).run(tool, { city: 'Saint Malo/../admin', unit: 'C' }, context());
    expect(output).toMatch(/^HTTP 200\n/);
    expect(seen).toHaveLength(1);
    // Arguments are encoded into one path segment: no way out of the template's path.
    expect(seen[0]!.url).toBe('/weather/Saint%20Malo%2F..%2Fadmin?unit=C');
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.parse(seen[0]!.body)).toEqual({ city: 'Saint Malo/../admin', unit: 'C' });
    expect(output).not.toContain(SECRET);
  });
});
