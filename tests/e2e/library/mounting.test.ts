import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { createPlatform, type Platform } from '../../../apps/platform/platform';
import { PlatformClosedError } from '../../../core/shared/platform-errors';
import type { PaymentGateway } from '../../../core/billing/ports/payment-gateway.port';
import { BODY_ALREADY_READ } from '../../../adapters/http/shared/json-body.middleware';
import { FAST_HASHING, testConfig } from '../../support/test-stack';
import { openTestDatabase } from '../../support/test-database';

/**
 * The platform mounted in another program's server, as docs/library.md shows it: Express with its JSON parser
 * before the mount, Koa with koa-body, Fastify with its own body parsing. Each reaches `POST /platform/api/auth/register`
 * (the parsed body is used, never waited for), the 404 texts name the path as sent, the console stays out, and a
 * closed platform answers 503 and throws `PlatformClosedError`.
 */
let platform: Platform;
const signatures: Array<string | undefined> = [];
/** A gateway of another processor, which signs its webhooks in its own header. */
const payments: PaymentGateway = {
  signatureHeader: 'x-pay-signature',
  assertAvailable() {},
  sells: () => true,
  createCustomer: async ({ userId }) => `cus_${userId}`,
  subscriptionCheckout: async () => ({ id: 'cs_1', url: 'https://pay.example.com/cs_1' }),
  licenseCheckout: async () => ({ id: 'cs_2', url: 'https://pay.example.com/cs_2' }),
  portalSession: async () => ({ url: 'https://pay.example.com/portal' }),
  invoices: async () => ({ items: [], hasMore: false, nextCursor: null }),
  reportOverage: async () => {},
  parseWebhook(_raw, signature) {
    signatures.push(signature);
    return { kind: 'ignored', id: `evt_${signatures.length}`, type: 'ping', created: new Date() };
  },
};
let listener: RequestListener;
const servers: Server[] = [];

async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const register = (base: string, email: string) =>
  fetch(`${base}/platform/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', displayName: 'Dev' }),
    signal: AbortSignal.timeout(20_000), // a hang would fail here, not at jest's timeout
  });

beforeAll(async () => {
  platform = await createPlatform({
    config: testConfig(),
    database: await openTestDatabase(),
    passwordHashing: FAST_HASHING,
    http: { basePath: '/platform' },
    defaultPlan: 'starter',
    plans: { starter: { name: 'Team', priceUsdPerMonth: 0, platformKeys: true, overageUsdPer1k: null, limits: { includedTokens: null, applications: 2, messagesPerMonth: null, apiKeys: null } } },
    adminEmails: ['ops@example.com'],
    adapters: { paymentGateway: payments },
  });
  listener = platform.http['core-api']!;
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await platform.close();
});

describe('the platform mounted in another server', () => {
  it('answers behind express.json(), with 404 texts naming the path as sent and no console', async () => {
    const app = express();
    app.use(express.json());
    app.use('/platform', listener);
    app.get('/own', (_req, res) => void res.json({ own: true }));
    const base = await serve(app);

    const created = await register(base, 'express@example.com');
    expect(created.status).toBe(201);
    expect(((await created.json()) as { user: { email: string } }).user.email).toBe('express@example.com');

    const missing = await fetch(`${base}/platform/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe('Cannot GET /platform/api/nothing-here');
    // The console is not part of an embedded platform unless asked for: no page, no 503 about a build script.
    const root = await fetch(`${base}/platform/`);
    expect(root.status).toBe(404);
    expect(await root.text()).not.toContain('build:console');
    expect(await (await fetch(`${base}/own`)).json()).toEqual({ own: true });
  });

  it('answers behind koa-body, and refuses at once, saying why, when the parser kept the body to itself', async () => {
    const mount = (patchNode: boolean) => {
      const app = new Koa();
      app.use(koaBody({ patchNode }));
      app.use(async (ctx, next) => {
        if (!ctx.path.startsWith('/platform/')) return next();
        ctx.respond = false;
        listener(ctx.req, ctx.res);
      });
      return app.callback();
    };
    const base = await serve(mount(true));
    expect((await register(base, 'koa@example.com')).status).toBe(201);

    const unpatched = await serve(mount(false));
    const refused = await register(unpatched, 'koa-unpatched@example.com');
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { message: string }).message).toBe(BODY_ALREADY_READ);
  });

  it('answers in Fastify, from the body Fastify parsed', async () => {
    const app = Fastify();
    app.all('/platform/*', (request, reply) => {
      reply.hijack();
      Object.assign(request.raw, { body: request.body }); // what the listener reads in place of the spent stream
      listener(request.raw, reply.raw);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address() as AddressInfo;
      expect((await register(`http://127.0.0.1:${address.port}`, 'fastify@example.com')).status).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('answers a plain Node server under its base path, and a 404 outside it', async () => {
    const base = await serve(listener);
    expect((await register(base, 'node@example.com')).status).toBe(201);
    const outside = await fetch(`${base}/api/health`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { message: string }).message).toBe('Cannot GET /api/health');
  });

  it("signs the program's own user in: one account per external id, whose session works on the mounted REST API", async () => {
    const base = await serve(listener);
    const first = await platform.externalUsers.session.execute({ externalId: 'user-42', email: 'user42@example.com' });
    const second = await platform.externalUsers.session.execute({ externalId: 'user-42' });
    expect(second.user.id).toBe(first.user.id);
    expect([first.created, second.created]).toEqual([true, false]);
    const me = await fetch(`${base}/platform/api/users/me`, { headers: { authorization: `Bearer ${second.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: first.user.id, email: 'user42@example.com' });
  });

  it('applies the plans given in code: the default plan and its limits, and no limit for admins', async () => {
    const { user } = await platform.externalUsers.resolve.execute({ externalId: 'user-plans' });
    const actor = { userId: user.id, role: user.role };
    expect(await platform.billing.usage.execute({ actor })).toMatchObject({ plan: 'starter' });
    for (const name of ['One', 'Two']) await platform.applications.create.execute({ actor, name });
    await expect(platform.applications.create.execute({ actor, name: 'Three' })).rejects.toMatchObject({ kind: 'payment_required' });
    const admin = (await platform.externalUsers.resolve.execute({ externalId: 'ops', email: 'ops@example.com' })).user;
    expect(admin.role).toBe('admin');
    for (const name of ['One', 'Two', 'Three']) await platform.applications.create.execute({ actor: { userId: admin.id, role: admin.role }, name });
  });

  it("hands the webhook route's signature from the header the gateway names", async () => {
    const base = await serve(listener);
    const res = await fetch(`${base}/platform/api/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-pay-signature': 'sig-1', 'stripe-signature': 'not-this-one' },
      body: JSON.stringify({ id: 'evt' }),
    });
    expect(res.status).toBe(200);
    expect(signatures).toEqual(['sig-1']);
  });

  it('keeps its secrets out of platform.config', () => {
    const config = platform.config as unknown as Record<string, unknown>;
    for (const secret of ['jwtSecret', 'encryptionKey', 'previousEncryptionKeys', 'aiServiceToken', 'marketplaceToken', 'providerKeys', 'stripe', 'oauth']) {
      expect(config).not.toHaveProperty(secret);
    }
    expect(platform.config.port).toEqual(expect.any(Number));
  });
});

describe('a closed platform', () => {
  it('refuses calls with PlatformClosedError and requests with a 503', async () => {
    const register = platform.auth.register;
    const base = await serve(listener);
    await platform.close();
    await expect(register.execute({ email: 'late@example.com', password: 'correct horse battery', displayName: 'Late' })).rejects.toBeInstanceOf(PlatformClosedError);
    await expect(platform.applications.list.execute({ actor: { userId: '00000000-0000-4000-8000-000000000000', role: 'developer' } })).rejects.toThrow(
      /The platform is closed: applications\.list\.execute\(\)/,
    );
    const late = await fetch(`${base}/platform/api/health`);
    expect(late.status).toBe(503);
  });
});
