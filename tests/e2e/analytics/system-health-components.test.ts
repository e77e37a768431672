import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_EMAIL, registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

const ADMIN = 'components-admin@example.com';

/** A marketplace stand-in answering its health endpoint with `status`. */
async function marketplaceStandIn(status: number, body: unknown): Promise<{ url: string; server: Server; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, paths };
}

describe('system health with a marketplace, and /metrics without METRICS_TOKEN', () => {
  let stack: TestStack;
  let token: string;
  let marketplace: Awaited<ReturnType<typeof marketplaceStandIn>>;
  beforeAll(async () => {
    marketplace = await marketplaceStandIn(200, { status: 'degraded' });
    stack = await startCoreApi({ env: { MARKETPLACE_URL: marketplace.url, ADMIN_EMAILS: `${ADMIN_EMAIL},${ADMIN}` } });
    token = (await registerUser(stack.client, { email: ADMIN })).access_token;
  });
  afterAll(async () => {
    await stack.close();
    marketplace.server.close();
  });

  it('pings the marketplace\'s health endpoint and carries its degraded status into the platform\'s', async () => {
    const res = await stack.client.get('/api/system-health', { token });
    expect(res.status).toBe(200);
    expect(marketplace.paths).toContain('/api/health');
    expect(res.body.components.marketplace).toMatchObject({ status: 'degraded', critical: false, latencyMs: expect.any(Number) });
    expect(res.body.components.redis.status).toBe('not_configured');
    expect(res.body.components.providers.status).toBe('unknown');
    expect(res.body.status).toBe('degraded');
  });

  it('reports a marketplace that does not answer as down (the platform degraded, not down)', async () => {
    await new Promise<void>((resolve) => marketplace.server.close(() => resolve()));
    marketplace.server.closeAllConnections();
    const res = await stack.client.get('/api/system-health', { token });
    expect(res.body.components.marketplace).toMatchObject({ status: 'down', error: 'unreachable' });
    expect(res.body.components.database.status).toBe('up');
    expect(res.body.status).toBe('degraded');
  });

  it('has no /metrics without METRICS_TOKEN', async () => {
    const res = await stack.client.get('/metrics', { token: 'any-token-any-token' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
