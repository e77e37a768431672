import { DATABASE_KINDS } from '../../support/test-database';
import { startCoreApi, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey } from '../public-api/public-api-support';
import { aPlugin } from '../../support/plugins/plugin-examples';
import { uploadDocument } from '../core-api/knowledge/knowledge-documents';

async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A plugin that keeps the platform events its webhook handler receives, and shows them at an endpoint. */
const RECORDER = `
definePlugin({
  webhooks: [{
    name: 'record',
    events: ['conversation.started'],
    handler: async (event, payload) => {
      await platform.kv.set('event:' + payload.id, { kind: 'event', type: event, conversationId: payload.data.conversationId, applicationId: payload.data.applicationId });
    },
  }],
  hooks: {
    'knowledge:documentReady': async ({ document }) => {
      await platform.kv.set('doc:' + document.id, { kind: 'event', type: 'knowledge:documentReady', documentId: document.id, fileName: document.fileName, chunkCount: document.chunkCount });
    },
  },
  endpoints: [{ method: 'GET', path: '/events', auth: true, handler: async () => ({ status: 200, body: (await platform.kv.find({ where: { kind: 'event' } })).map((e) => e.value) }) }],
});`;

/** Plugins and the domain events: handlers hear committed events, state changes are published. */
describe.each(DATABASE_KINDS)('plugins and domain events (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true, env: { CACHE_TTL_MS: '0' } });
  });
  afterAll(() => stack.close());

  it("delivers a real conversation.started to the webhook handler of the application's active plugin, and publishes plugin.activated / plugin.deactivated", async () => {
    const owner = await anOwnerWithKey(stack);
    const plugin = await stack.client.post('/api/plugins', aPlugin(RECORDER, { permissions: { events: ['conversation.started'] } }), { token: owner.token });
    expect(plugin.status).toBe(201);
    const installed = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId: plugin.body.id }, { token: owner.token });
    expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.body.id}/activate`, undefined, { token: owner.token })).status).toBe(200);

    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    expect(conversation.status).toBe(201);
    const seen = await eventually(
      async () => (await stack.client.get(`/api/plugins/${plugin.body.id}/endpoints/events?applicationId=${owner.app.id}`, { token: owner.token })).body,
      (body) => Array.isArray(body) && body.length > 0,
    );
    expect(seen).toEqual([{ kind: 'event', type: 'conversation.started', conversationId: conversation.body.id, applicationId: owner.app.id }]);

    expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.body.id}/deactivate`, undefined, { token: owner.token })).status).toBe(200);
    const types = await eventually(
      async () =>
        (
          (await stack.infra.dataSource.query(`SELECT type, data FROM event_outbox WHERE application_id = $1 AND type LIKE 'plugin.%' ORDER BY seq`, [owner.app.id])) as {
            type: string;
            data: Record<string, unknown>;
          }[]
        ).map((row) => ({ type: row.type, installationId: row.data.installationId, pluginId: row.data.pluginId })),
      (rows) => rows.length >= 2,
    );
    expect(types).toEqual([
      { type: 'plugin.activated', installationId: installed.body.id, pluginId: plugin.body.id },
      { type: 'plugin.deactivated', installationId: installed.body.id, pluginId: plugin.body.id },
    ]);
  });

  it('runs the knowledge:documentReady hook once a document is ready', async () => {
    const owner = await anOwnerWithKey(stack);
    const plugin = await stack.client.post('/api/plugins', aPlugin(RECORDER), { token: owner.token });
    const installed = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId: plugin.body.id }, { token: owner.token });
    expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.body.id}/activate`, undefined, { token: owner.token })).status).toBe(200);
    const upload = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'returns.txt', text: 'Widgets may be returned within 30 days.' });
    expect(upload.status).toBe(202);
    const seen = await eventually(
      async () => (await stack.client.get(`/api/plugins/${plugin.body.id}/endpoints/events?applicationId=${owner.app.id}`, { token: owner.token })).body,
      (body) => Array.isArray(body) && body.length > 0,
    );
    expect(seen).toEqual([{ kind: 'event', type: 'knowledge:documentReady', documentId: upload.body.id, fileName: 'returns.txt', chunkCount: 1 }]);
  });
});
