import { HmacPreviewTokens } from '../../../adapters/crypto/hmac.preview-tokens';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, withKey } from './public-api-support';

const SHOP = 'https://shop.example.com';
const EVIL = 'https://evil.example.net';
/** What a sandboxed frame (the console's preview) sends as its origin. */
const SANDBOXED = 'null';

describe('widget preview sessions: the console previews the widget for real without an allowed origin', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, engine: 'in-process' });
    owner = await anOwnerWithKey(stack, { allowedOrigins: [SHOP] });
  });
  afterAll(() => stack.close());

  const issue = async (appId = owner.app.id, token = owner.token) => stack.client.post(`/api/applications/${appId}/widget-preview`, {}, { token });

  it("issues a short-lived session bound to the application and one of its keys, never cached", async () => {
    const res = await issue();
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      token: expect.stringMatching(/^wpv_[\w-]+\.[\w-]+$/),
      expiresAt: expect.any(String),
      title: 'Support Bot',
      key: { id: owner.key.id, name: 'API key', keyHint: owner.key.key.slice(-4) },
    });
    const ttl = Date.parse(res.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    expect(JSON.stringify(res.body)).not.toContain(owner.key.key);
  });

  it('chats from the sandboxed preview frame, whose origin the application does not list, and lets it read the answer', async () => {
    const { token } = (await issue()).body;
    const preflight = await stack.client.request('OPTIONS', '/api/v1/chat', {
      headers: { Origin: SANDBOXED, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type, x-client' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SANDBOXED);
    const app = await stack.client.get(`/api/v1/app?applicationId=${owner.app.id}`, withKey(token, { Origin: SANDBOXED, 'X-Client': 'widget' }));
    expect(app.status).toBe(200);
    expect(app.body.name).toBe('Support Bot');
    const res = await stack.client.post('/api/v1/chat', { applicationId: owner.app.id, message: 'Hello from the preview' }, withKey(token, { Origin: SANDBOXED, 'X-Client': 'widget' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SANDBOXED);
    expect(res.body.message.content).toContain('Hello from the preview');
    // The session continues its conversation, and counts against the key's limit like the widget's requests.
    const next = await stack.client.post('/api/v1/chat', { applicationId: owner.app.id, conversationId: res.body.conversationId, message: 'And again' }, withKey(token, { Origin: SANDBOXED }));
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('an API key from the sandboxed origin still needs an application that lists it', async () => {
    const res = await stack.client.post('/api/v1/chat', { applicationId: owner.app.id, message: 'hi' }, withKey(owner.key.key, { Origin: SANDBOXED }));
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is refused from any other site, even one the application allows', async () => {
    const { token } = (await issue()).body;
    for (const origin of [EVIL, SHOP]) {
      const res = await stack.client.post('/api/v1/chat', { applicationId: owner.app.id, message: 'hi' }, withKey(token, { Origin: origin }));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('A preview session works only in the console’s widget preview');
    }
  });

  it('works only for its own application, even when its key covers all of them', async () => {
    const allApps = await anOwnerWithKey(stack, { scope: 'all' });
    const other = await stack.client.post('/api/applications', { name: 'Second' }, { token: allApps.token });
    const session = (await issue(allApps.app.id, allApps.token)).body;
    expect(session.key.id).toBe(allApps.key.id);
    const own = await stack.client.get(`/api/v1/app?applicationId=${allApps.app.id}`, withKey(session.token, { Origin: SANDBOXED }));
    expect(own.status).toBe(200);
    const res = await stack.client.get(`/api/v1/app?applicationId=${other.body.id}`, withKey(session.token, { Origin: SANDBOXED }));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('This preview session cannot be used with that application');
  });

  it('expires, and an altered or foreign-signed session is not valid', async () => {
    const signer = new HmacPreviewTokens(stack.config.jwtSecret);
    const claims = { applicationId: owner.app.id, keyId: owner.key.id, ownerId: owner.user.id };
    const expired = signer.issue({ ...claims, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    const res = await stack.client.get(`/api/v1/app?applicationId=${owner.app.id}`, withKey(expired, { Origin: SANDBOXED }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('The preview session has expired: reload the preview');
    const forged = new HmacPreviewTokens('another secret of at least thirty-two chars').issue({ ...claims, expiresAt: Math.floor(Date.now() / 1000) + 600 });
    const { token } = (await issue()).body;
    const altered = token.replace(/\.(.)/, (_: string, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    for (const bad of [forged, altered]) {
      const refused = await stack.client.get(`/api/v1/app?applicationId=${owner.app.id}`, withKey(bad, { Origin: SANDBOXED }));
      expect(refused.status).toBe(401);
      expect(refused.body.message).toBe('The preview session is not valid');
    }
  });

  it('stops with its key: a revoked key ends the session at once', async () => {
    const fresh = await anOwnerWithKey(stack);
    const { token } = (await issue(fresh.app.id, fresh.token)).body;
    expect((await stack.client.post(`/api/api-keys/${fresh.key.id}/revoke`, {}, { token: fresh.token })).status).toBe(200);
    const res = await stack.client.get(`/api/v1/app?applicationId=${fresh.app.id}`, withKey(token, { Origin: SANDBOXED }));
    expect(res.status).toBe(401);
  });

  it("answers 404 for another user's application, 409 without a key, 401 without a session", async () => {
    const stranger = await registerUser(stack.client);
    expect((await issue(owner.app.id, stranger.access_token)).status).toBe(404);
    const keyless = await userWithApplication(stack.client);
    const res = await issue(keyless.app.id, keyless.token);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('create a key for this application first');
    expect((await stack.client.post(`/api/applications/${owner.app.id}/widget-preview`, {})).status).toBe(401);
  });
});
