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

// Timing-sensitive on a loaded two-core CI machine (a faked page clock / ticks racing a deactivation): retried, each
// failure still printed. Seen failing once in a fresh-clone .ci/run and passing in every other run.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

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

  it('runs each tick once, whichever instance takes it, and stops on deactivation from the other instance', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const owner = await userWithApplication(a.client);
    const source = `definePlugin({ cron: [{ name: 'tick', schedule: '* * * * * *', handler: async ({ firedAt }) => { await platform.kv.set('t:' + firedAt, 1); } }] })`;
    const plugin = (await a.client.post('/api/plugins', aPlugin(source), { token: owner.token })).body;
    const installation = (await a.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId: plugin.id }, { token: owner.token })).body;
    expect((await a.client.put(`/api/applications/${owner.app.id}/plugins/${installation.id}/activate`, undefined, { token: owner.token })).status).toBe(200);
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 5_500));
    expect((await b.client.put(`/api/applications/${owner.app.id}/plugins/${installation.id}/deactivate`, undefined, { token: owner.token })).status).toBe(200);
    const elapsedSeconds = (Date.now() - started) / 1000;
    const runs: { at: Date }[] = await database.dataSource.query(`SELECT at FROM plugin_runs WHERE installation_id = $1 AND kind = 'cron' AND ok ORDER BY at`, [installation.id]);
    // One run per second at most: with both instances running every tick there would be about twice as many.
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(elapsedSeconds) + 1);
    const seconds = runs.map((r) => Math.floor(new Date(r.at).getTime() / 1000));
    expect(new Set(seconds).size).toBe(seconds.length);
    await new Promise((r) => setTimeout(r, 1_500));
    const [after] = await database.dataSource.query(`SELECT count(*)::int AS n FROM plugin_runs WHERE installation_id = $1 AND kind = 'cron'`, [installation.id]);
    expect(after.n).toBe(runs.length);
  });
});
