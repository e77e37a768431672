import { SsrfSafeWebhookSender } from '../../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { startEventsInstance, uniquePrefix, type EventsInstance } from '../../../support/events-stack';
import { startLocalDns } from '../../../support/local-dns';
import { registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';
import { WebhookReceiver } from '../../../support/webhook-receiver';

describe('webhook SSRF protection', () => {
  let trap: WebhookReceiver; // every private target below points at it; it must see no connection
  let allowed: WebhookReceiver; // on 127.0.0.2, the one range the operator allows
  let dns: Awaited<ReturnType<typeof startLocalDns>>;
  let stack: TestStack;
  let core: EventsInstance;

  beforeAll(async () => {
    trap = await WebhookReceiver.start('::');
    allowed = await WebhookReceiver.start('127.0.0.2');
    dns = await startLocalDns({ 'internal.example.test': '127.0.0.1', 'metadata.example.test': '169.254.169.254', 'allowed.example.test': '127.0.0.2' });
    stack = await startCoreApi({ env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.2/32' } });
    await stack.core.stop();
    core = await startEventsInstance(stack, { jobPrefix: uniquePrefix('ssrf'), webhooks: { lookup: dns.lookup, timeoutMs: 2000 } });
  });
  afterAll(async () => {
    await core?.close();
    await stack?.close();
    await trap?.close();
    await allowed?.close();
    await dns?.close();
  });

  const privateUrls = () => [
    `http://127.0.0.1:${trap.port}/hook`,
    `http://localhost:${trap.port}/hook`,
    `http://[::1]:${trap.port}/hook`,
    `http://10.0.0.1:${trap.port}/hook`,
    'http://169.254.169.254/latest/meta-data/',
    `http://0.0.0.0:${trap.port}/hook`,
    `http://[::ffff:127.0.0.1]:${trap.port}/hook`,
    `http://2130706433:${trap.port}/hook`,
    `http://internal.example.test:${trap.port}/hook`,
    'http://metadata.example.test/latest/meta-data/',
  ];

  it('refuses to register webhook URLs that reach private, loopback, link-local or unspecified addresses', async () => {
    const user = await registerUser(core.client);
    for (const url of privateUrls()) {
      const res = await core.client.post('/api/webhooks', { url, events: ['message.completed'] }, { token: user.access_token });
      expect([url, res.status, res.body.details?.[0]?.path]).toEqual([url, 400, 'url']);
      // It names the setting that allows a private range (development, an internal receiver); localhost is not
      // in the test's DNS, so it does not resolve here.
      if (!url.includes('localhost')) expect([url, res.body.message]).toEqual([url, expect.stringContaining('operator can allow a private network range')]);
    }
    expect(trap.connections).toBe(0);
    // The allowed range is accepted.
    const ok = await core.client.post('/api/webhooks', { url: allowed.url, events: ['message.completed'] }, { token: user.access_token });
    expect(ok.status).toBe(201);
  });

  it('refuses at delivery time too, connecting to no private address, whatever the URL says', async () => {
    // localhost resolves through the system; the rest through the test's DNS server.
    const sender = new SsrfSafeWebhookSender({ allowHttp: true, allowedPrivateCidrs: ['127.0.0.2/32'], lookup: dns.lookup, timeoutMs: 2000 });
    for (const url of privateUrls().filter((u) => !u.includes('localhost'))) {
      const result = await sender.send({ url, secret: sender.newSecret(), messageId: 'evt_1', timestamp: new Date(), body: '{}' });
      expect([url, result.outcome]).toEqual([url, 'refused']);
    }
    const system = new SsrfSafeWebhookSender({ allowHttp: true });
    const viaSystem = await system.send({ url: `http://localhost:${trap.port}/hook`, secret: system.newSecret(), messageId: 'evt_2', timestamp: new Date(), body: '{}' });
    expect(viaSystem.outcome).toBe('refused');
    expect(dns.queries).toEqual(expect.arrayContaining(['internal.example.test', 'metadata.example.test']));
    expect(trap.connections).toBe(0);
  });

  it('does not follow a redirect from an allowed host to a private one', async () => {
    allowed.respond = () => ({ redirect: `http://127.0.0.1:${trap.port}/hook` });
    const sender = new SsrfSafeWebhookSender({ allowHttp: true, allowedPrivateCidrs: ['127.0.0.2/32'], lookup: dns.lookup });
    for (const url of [allowed.url, allowed.url.replace('127.0.0.2', 'allowed.example.test')]) {
      const result = await sender.send({ url, secret: sender.newSecret(), messageId: 'evt_3', timestamp: new Date(), body: '{}' });
      expect(result).toMatchObject({ outcome: 'failed', statusCode: 302, error: 'The receiver answered 302 (redirects are not followed)' });
    }
    expect(allowed.received.length).toBeGreaterThanOrEqual(2);
    expect(trap.connections).toBe(0);
  });

  it('requires https unless WEBHOOKS_ALLOW_HTTP is set, and says so', async () => {
    const strict = new SsrfSafeWebhookSender();
    expect(await strict.problemWith('http://example.com/hook')).toBe('url must use https (this platform calls http addresses only where its operator allows them, for development)');
    expect(await strict.problemWith('ftp://example.com/hook')).toBe('url must use https');
    const res = await strict.send({ url: allowed.url, secret: strict.newSecret(), messageId: 'evt_4', timestamp: new Date(), body: '{}' });
    expect(res.outcome).toBe('refused');
  });

  it('reads at most 64 KB of an answer', async () => {
    const big = await WebhookReceiver.start('127.0.0.2');
    try {
      (big as any).handle = function (_req: unknown, res: import('node:http').ServerResponse) {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const write = () => (res.write(chunk) ? setImmediate(write) : res.once('drain', write));
        write();
      };
      const sender = new SsrfSafeWebhookSender({ allowHttp: true, allowedPrivateCidrs: ['127.0.0.2/32'], timeoutMs: 3000 });
      const result = await sender.send({ url: big.url, secret: sender.newSecret(), messageId: 'evt_5', timestamp: new Date(), body: '{}' });
      expect(result).toMatchObject({ outcome: 'succeeded', statusCode: 200 });
    } finally {
      await big.close();
    }
  });
});
