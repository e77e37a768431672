import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import type { TestResponse } from '../../support/http-client';
import { anOwnerWithKey, createKey } from '../public-api/public-api-support';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One private endpoint (`auth: true`) per method, answering who called. */
const SOURCE = `definePlugin({ endpoints: [${METHODS.map((m) => `{ method: '${m}', path: '/private', auth: true, handler: (req) => ({ status: 200, body: { method: '${m}', user: req.user } }) }`).join(', ')}] })`;

/** Plugin endpoints (`/api/plugins/:pluginId/endpoints/...`) answer what the caller may not see exactly as what does not exist. */
describe('plugin endpoints: no existence oracle, and a 404 that names the missing application', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  let stranger: Awaited<ReturnType<typeof anOwnerWithKey>>;
  let pluginId: string;
  /** The owner's key for another of the owner's applications. */
  let otherAppKey: string;

  beforeAll(async () => {
    stack = await startCoreApi();
    owner = await anOwnerWithKey(stack);
    stranger = await anOwnerWithKey(stack);
    const plugin = await stack.client.post('/api/plugins', { manifest: { name: 'private-endpoints', version: '1.0.0', main: 'index.js' }, source: SOURCE }, { token: owner.token });
    expect(plugin.status).toBe(201);
    pluginId = plugin.body.id;
    const installed = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId }, { token: owner.token });
    expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.body.id}/activate`, undefined, { token: owner.token })).status).toBe(200);
    const otherApp = await stack.client.post('/api/applications', { name: 'Second app' }, { token: owner.token });
    expect(otherApp.status).toBe(201);
    otherAppKey = (await createKey(stack.client, owner.token, { applicationId: otherApp.body.id })).key;
  });
  afterAll(() => stack.close());

  const call = (method: string, plugin: string, headers: Record<string, string>, query = `?applicationId=${owner.app.id}`): Promise<TestResponse> =>
    stack.client.request(method, `/api/plugins/${plugin}/endpoints/private${query}`, { headers, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });

  it.each(METHODS)('%s: the owner gets the endpoint by bearer token and by API key', async (method) => {
    const byToken = await call(method, pluginId, { Authorization: `Bearer ${owner.token}` });
    expect([byToken.status, byToken.body]).toEqual([200, { method, user: { id: owner.user.id } }]);
    const byKey = await call(method, pluginId, { 'X-API-Key': owner.key.key });
    expect([byKey.status, byKey.body]).toEqual([200, { method, user: { id: owner.user.id } }]);
  });

  it.each(METHODS)('%s: another user’s plugin answers 404 exactly like a missing one, by bearer token and by API key', async (method) => {
    const credentials: Array<[string, Record<string, string>]> = [
      ['stranger’s token', { Authorization: `Bearer ${stranger.token}` }],
      ['stranger’s key', { 'X-API-Key': stranger.key.key }],
      ['owner’s key for another application', { 'X-API-Key': otherAppKey }],
    ];
    for (const [who, headers] of credentials) {
      const missing = await call(method, randomUUID(), headers);
      const hidden = await call(method, pluginId, headers);
      expect([who, hidden.status, hidden.body]).toEqual([who, 404, missing.body]);
      expect(missing.body).toEqual({ statusCode: 404, message: 'Plugin endpoint not found', error: 'Not Found' });
    }
    // The same with the stranger's own application named: it has no such plugin either.
    const own = await call(method, pluginId, { Authorization: `Bearer ${stranger.token}` }, `?applicationId=${stranger.app.id}`);
    expect(own.status).toBe(404);
  });

  it('still answers 401 to a call without credentials, and to a bad token', async () => {
    expect((await call('GET', pluginId, {})).status).toBe(401);
    expect((await call('GET', pluginId, { Authorization: 'Bearer nonsense' })).status).toBe(401);
    const unregistered = await registerUser(stack.client);
    expect((await call('GET', pluginId, { Authorization: `Bearer ${unregistered.access_token}` })).status).toBe(404);
  });

  it('answers a call without the application with a 404 naming ?applicationId= and X-Application-Id', async () => {
    for (const plugin of [pluginId, randomUUID()]) {
      const res = await call('GET', plugin, { Authorization: `Bearer ${owner.token}` }, '');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: expect.stringContaining('?applicationId='), error: 'Not Found' });
      expect(res.body.message).toContain('X-Application-Id');
      // docs/plugins.md shows this answer as it is.
      expect(readFileSync(join(__dirname, '../../../docs/plugins.md'), 'utf8').replace(/\s+/g, ' ')).toContain(`404 "${res.body.message}"`);
    }
    // Named either way, it answers.
    expect((await call('GET', pluginId, { Authorization: `Bearer ${owner.token}`, 'X-Application-Id': owner.app.id }, '')).status).toBe(200);
    expect((await call('GET', pluginId, { Authorization: `Bearer ${owner.token}` })).status).toBe(200);
  });
});
