import { DispatchPlatformEventUseCase } from '../../../core/plugins/use-cases/dispatch-platform-event.use-case';
import type { Database } from '../../../adapters/persistence/data-source';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { eventually, runtimeOn } from './plugin-runtime-support';

const CALL = { cpuMs: 1000, wallMs: 10_000 };

describe.each(DATABASE_KINDS)('plugin webhook handlers, hooks from platform events, and KV queries (%s)', (database) => {
  let db: Database;
  let env: ReturnType<typeof runtimeOn>;

  beforeAll(async () => {
    db = await openTestDatabase(database);
    env = runtimeOn(db);
  });
  afterAll(async () => {
    await env.close();
    await db.close();
  });

  it('delivers a platform event to the webhook handlers that listed it, only in its application, and runs the mapped hook', async () => {
    const app = await env.anApplication();
    const source = `definePlugin({
      webhooks: [{ name: 'audit', events: ['message.completed', 'conversation.started'], handler: async (event, payload) => { await platform.kv.set('got:' + event + ':' + payload.id, payload.data); } }],
      hooks: { 'conversation:start': async ({ conversation }) => { await platform.kv.set('started:' + conversation.id, conversation); } },
    })`;
    const listening = await env.activePlugin(source, { permissions: { events: ['message.completed', 'conversation.started'] } }, app);
    // Same code without the permission: its handler never runs.
    const unpermitted = await env.activePlugin(source, { permissions: { events: [] } }, app);
    const elsewhere = await env.activePlugin(source, { permissions: { events: ['message.completed'] } });
    const dispatch = new DispatchPlatformEventUseCase({ runtime: env.runtime });

    const delivered = await dispatch.execute({ id: 'evt_1', type: 'message.completed', timestamp: new Date().toISOString(), data: { applicationId: app.id, conversationId: 'c1', messageId: 'm1' } });
    expect(delivered).toBe(1);
    expect(await env.kv.get(listening.id, 'got:message.completed:evt_1')).toEqual({ applicationId: app.id, conversationId: 'c1', messageId: 'm1' });
    expect(await env.kv.keys(unpermitted.id, 'got:')).toEqual([]);
    expect(await env.kv.keys(elsewhere.id, 'got:')).toEqual([]);

    await dispatch.execute({ id: 'evt_2', type: 'conversation.started', timestamp: new Date().toISOString(), data: { applicationId: app.id, conversationId: 'c2', source: 'api' } });
    const started = await eventually(() => env.kv.get(listening.id, 'started:c2'), (v) => v !== null);
    expect(started).toEqual({ id: 'c2', applicationId: app.id, source: 'api' });
    // Hooks need no permission: the unpermitted installation runs its conversation:start hook too.
    expect(await eventually(() => env.kv.get(unpermitted.id, 'started:c2'), (v) => v !== null)).not.toBeNull();
    expect(await dispatch.execute({ id: 'evt_3', type: 'message.completed', timestamp: '', data: {} })).toBe(0);
  });

  it('answers find with where, sort and limit, count with where, keys by prefix, and forgets expired keys', async () => {
    const installation = await env.activePlugin(`definePlugin({ on: {
      seed: async () => {
        for (let i = 0; i < 30; i++) await platform.kv.set('item:' + String(i).padStart(2, '0'), { status: i % 3 === 0 ? 'open' : 'closed', score: i });
        await platform.kv.set('short', 1, { ttlSeconds: 1 });
        return true;
      },
      query: async () => ({
        top: (await platform.kv.find({ where: { status: 'open' }, sort: { score: -1 }, limit: 3 })).map((e) => e.key),
        open: await platform.kv.count({ status: 'open' }),
        all: await platform.kv.count(),
        keys: (await platform.kv.keys('item:0')).length,
        short: await platform.kv.get('short'),
        badLimit: await platform.kv.find({ limit: 1000 }).then(() => 'ok', (e) => e.message),
      }),
    } })`);
    await env.runtime.load(installation);
    await env.runtime.call(installation, { kind: 'event', name: 'seed' }, {}, CALL);
    const first = (await env.runtime.call(installation, { kind: 'event', name: 'query' }, {}, CALL)) as Record<string, unknown>;
    expect(first).toEqual({ top: ['item:27', 'item:24', 'item:21'], open: 10, all: 31, keys: 10, short: 1, badLimit: expect.stringMatching(/limit must be a whole number from 1 to 100/) });
    await new Promise((r) => setTimeout(r, 1_200));
    const later = (await env.runtime.call(installation, { kind: 'event', name: 'query' }, {}, CALL)) as Record<string, unknown>;
    expect(later).toMatchObject({ short: null, all: 30 });
    // The plan reads an index (the primary key's installation prefix or the GIN index), never every key of the table.
    const crowd = await env.activePlugin(`definePlugin({})`);
    await db.dataSource.query(`INSERT INTO plugin_kv (installation_id, key, value) SELECT $1, 'k' || g, jsonb_build_object('status', 'x' || (g % 50), 'n', g) FROM generate_series(1, 20000) g`, [crowd.id]);
    await db.dataSource.query(`ANALYZE plugin_kv`);
    const plan = await db.dataSource.query(`EXPLAIN SELECT key, value FROM plugin_kv WHERE installation_id = '${installation.id}' AND value @> '{"status":"open"}'::jsonb`);
    expect(JSON.stringify(plan)).toMatch(/Index|Bitmap/);
  });
});
