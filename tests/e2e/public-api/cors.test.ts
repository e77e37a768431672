import { get, type IncomingMessage } from 'node:http';
import { startCoreApi, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, withKey } from './public-api-support';

const SHOP = 'https://shop.example.com';
const ELSEWHERE = 'https://elsewhere.example.com';
const EVIL = 'https://evil.example.net';

describe('public API: CORS for the origins each application allows', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  let neighbour: Awaited<ReturnType<typeof anOwnerWithKey>>;
  beforeAll(async () => {
    stack = await startCoreApi();
    owner = await anOwnerWithKey(stack, { allowedOrigins: [SHOP] });
    neighbour = await anOwnerWithKey(stack, { allowedOrigins: [ELSEWHERE], appName: 'Neighbour' });
  });
  afterAll(() => stack.close());

  const preflight = (origin: string, path = '/api/v1/chat/stream') =>
    stack.client.request('OPTIONS', path, {
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type' },
    });

  it('answers the preflight of an allowed origin, allowing the key and JSON headers', async () => {
    const res = await preflight(SHOP);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/X-API-Key.*Content-Type/);
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('refuses the preflight of an origin no application allows, without CORS headers', async () => {
    const res = await preflight(EVIL);
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('lets an allowed origin read the answer and its rate-limit and conversation headers', async () => {
    const res = await stack.client.get('/api/v1/app', withKey(owner.key.key, { Origin: SHOP }));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    const exposed = res.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Conversation-Id']));
  });

  it('gives another origin no CORS headers and refuses its request', async () => {
    const res = await stack.client.get('/api/v1/app', withKey(owner.key.key, { Origin: EVIL }));
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.body.message).toBe('The application does not allow requests from this origin');
  });

  it("refuses an origin that only another application allows, so the answer holds no data", async () => {
    const res = await stack.client.get('/api/v1/app', withKey(owner.key.key, { Origin: ELSEWHERE }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: 'The application does not allow requests from this origin', error: 'Forbidden' });
    expect((await stack.client.get('/api/v1/app', withKey(neighbour.key.key, { Origin: ELSEWHERE }))).status).toBe(200);
  });

  it('stops serving an origin as soon as the owner removes it', async () => {
    const app = await anOwnerWithKey(stack, { allowedOrigins: [SHOP, 'https://old.example.com'], appName: 'Moving' });
    expect((await stack.client.get('/api/v1/app', withKey(app.key.key, { Origin: 'https://old.example.com' }))).status).toBe(200);
    await stack.client.put(`/api/applications/${app.app.id}`, { allowedOrigins: [SHOP] }, { token: app.token });
    expect((await stack.client.get('/api/v1/app', withKey(app.key.key, { Origin: 'https://old.example.com' }))).status).toBe(403);
  });

  it('serves servers (no Origin) and pages of its own origin without any listing', async () => {
    expect((await stack.client.get('/api/v1/app', withKey(owner.key.key))).status).toBe(200);
    const own = await stack.client.get('/api/v1/app', withKey(owner.key.key, { Origin: stack.listening.url }));
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds no CORS headers outside the public API', async () => {
    const res = await stack.client.get('/api/applications', { token: owner.token, headers: { Origin: SHOP } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the widget script to any site, cached and revalidated', async () => {
    const res = await stack.client.get('/public/widget.js', { headers: { Origin: EVIL } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=300/);
    expect(res.text).toContain('data-app-id');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // node:http, because fetch adds `Cache-Control: no-cache`, which rightly forbids a 304.
    const again = await new Promise<IncomingMessage>((resolve) => get(`${stack.listening.url}/public/widget.js`, { headers: { 'If-None-Match': etag } }, resolve));
    again.resume();
    expect(again.statusCode).toBe(304);
  });

  it('tells any page, without a key or preflight, whether its origin may use an application, and how to allow it', async () => {
    const access = (origin: string | undefined, applicationId: string = owner.app.id) =>
      stack.client.get(`/public/widget-access?applicationId=${applicationId}`, { headers: origin ? { Origin: origin } : {} });
    const allowed = await access(SHOP);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual({ allowed: true, origin: SHOP });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    expect(allowed.headers.get('cache-control')).toBe('no-store');

    const refused = await access(EVIL);
    expect(refused.status).toBe(200);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.body).toEqual({
      allowed: false,
      origin: EVIL,
      reason: 'origin_not_allowed',
      message: `This chat is not enabled on ${EVIL}. The site owner can enable it by adding ${EVIL} to the application's allowed origins (allowedOrigins).`,
    });
    // Another application's origin is not this one's; an unknown or malformed id answers the same, revealing nothing.
    expect((await access(ELSEWHERE)).body.allowed).toBe(false);
    expect((await access(EVIL, '00000000-0000-4000-8000-000000000000')).body).toEqual(refused.body);
    expect((await access(EVIL, 'not-an-id')).body).toEqual(refused.body);
    expect((await access(undefined)).body).toEqual({ allowed: true, origin: null });
  });
});
