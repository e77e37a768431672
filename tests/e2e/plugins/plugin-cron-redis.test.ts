import { randomBytes } from 'node:crypto';
import { coreApiModules } from '../../../apps/core-api/core-api.container';
import { pluginsModule } from '../../../apps/core-api/modules/plugins.module';
import { composeApp, type ComposedApp } from '../../../apps/shared/compose';
import { createInfrastructure, type Infrastructure } from '../../../apps/shared/infrastructure';
import { listen, type Listening } from '../../../apps/shared/serve';
import { createLogger } from '../../../adapters/logging/logger';
import { openTestDatabase } from '../../support/test-database';
import { FAST_HASHING, stopListening, testConfig, userWithApplication } from '../../support/test-stack';
import { TestClient } from '../../support/http-client';
import { aPlugin } from '../../support/plugins/plugin-examples';
import type { Database } from '../../../adapters/persistence/data-source';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the plugin cron across instances test is skipped\n');

/** Two core API instances on one database and one Redis: each cron tick runs on exactly one of them. */
(REDIS_URL ? describe : describe.skip)('plugin cron across two instances on Redis', () => {
  const jobPrefix = `test-plugins-${randomBytes(4).toString('hex')}`;
  let database: Database;
  const instances: { infra: Infrastructure; app: ComposedApp; listening: Listening; client: TestClient }[] = [];

  beforeAll(async () => {
    const config = testConfig({ REDIS_URL, CACHE_TTL_MS: '600000' });
    database = await openTestDatabase(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
    for (let i = 0; i < 2; i++) {
      const infra = await createInfrastructure(config, { database, logger: createLogger('silent') });
      const modules = coreApiModules(infra, { passwordHashing: FAST_HASHING }).map((m) => (m.name === 'plugins' ? pluginsModule({ jobPrefix }) : m));
      const app = await composeApp('core-api', infra, modules);
      const listening = await listen(app, '127.0.0.1', 0);
      instances.push({ infra, app, listening, client: new TestClient(listening.url) });
    }
  });

  afterAll(async () => {
    for (const i of instances) {
      await stopListening(i.listening);
      await i.app.stop();
      await i.infra.cache.close?.();
      i.infra.redis?.disconnect();
    }
    await database.close();
  });

  it('runs each tick once, whichever instance takes it, and starts none after the other instance deactivated it', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const owner = await userWithApplication(a.client);
    const source = `definePlugin({ cron: [{ name: 'tick', schedule: '* * * * * *', handler: async ({ firedAt }) => { await platform.kv.set('t:' + firedAt, 1); } }] })`;
    const plugin = (await a.client.post('/api/plugins', aPlugin(source), { token: owner.token })).body;
    const installation = (await a.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId: plugin.id }, { token: owner.token })).body;
    const runs = (where: string): Promise<{ ok: boolean; error: string | null }[]> =>
      database.dataSource.query(`SELECT ok, error FROM plugin_runs WHERE installation_id = $1 AND kind = 'cron' AND ${where}`, [installation.id]);

    // Before the request: its schedule may fire a tick before the answer arrives.
    const activating = Date.now();
    expect((await a.client.put(`/api/applications/${owner.app.id}/plugins/${installation.id}/activate`, undefined, { token: owner.token })).status).toBe(200);
    // Three ticks have run, however loaded the machine (no fixed wait for them).
    while ((await runs('ok')).length < 3) await new Promise((r) => setTimeout(r, 100));
    expect((await b.client.put(`/api/applications/${owner.app.id}/plugins/${installation.id}/deactivate`, undefined, { token: owner.token })).status).toBe(200);
    const deactivated = Date.now();

    // Past one more period: a tick the schedule still fired would have started by then. A tick already under way on
    // `a` when `b` deactivated may finish and be recorded meanwhile; one under way on `b` is stopped, not failed.
    await new Promise((r) => setTimeout(r, 1_500));
    const ticks: { key: string }[] = await database.dataSource.query(`SELECT key FROM plugin_kv WHERE installation_id = $1 AND key LIKE 't:%'`, [installation.id]);
    const firedAt = ticks.map((t) => Date.parse(t.key.slice(2)));
    expect(firedAt.length).toBeGreaterThanOrEqual(3);
    // No tick started after the deactivation answered.
    expect(firedAt.filter((t) => t > deactivated)).toEqual([]);
    // One run per tick: the schedule fires once a second, so at most this many ticks fell between the activation and the
    // deactivation; with both instances running every tick there would be about twice as many.
    const scheduled = Math.floor((deactivated - activating) / 1000) + 1;
    expect((await runs('ok')).length).toBeLessThanOrEqual(scheduled);
    expect(firedAt.length).toBeLessThanOrEqual(scheduled);
    // Nothing counted against the plugin: the deactivation is not its failure.
    expect(await runs('NOT ok')).toEqual([]);
    const [state] = await database.dataSource.query(`SELECT consecutive_failures FROM plugin_installations WHERE id = $1`, [installation.id]);
    expect(state.consecutive_failures).toBe(0);
  });
});
