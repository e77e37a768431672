import type { Database } from '../../../adapters/persistence/data-source';
import { PluginCallError } from '../../../core/plugins/domain/plugin-errors';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { eventually, runtimeOn } from './plugin-runtime-support';

const CALL = { cpuMs: 1000, wallMs: 10_000 };

/**
 * A call under way when the platform stops the installation (a deactivation on this instance disposes its isolate):
 * the plugin did nothing wrong, so nothing is recorded against it, and its code is not loaded again for that call.
 * Before, the cut call counted as the plugin's failure: a failed cron run was logged after the deactivation had answered
 * (the flake of tests/e2e/plugins/plugin-cron-redis.test.ts), and the installation's failures in a row grew.
 */
describe.each(DATABASE_KINDS)('a plugin call stopped by the platform (%s)', (database) => {
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

  it('ends as unavailable, records no failure and no run, and leaves the code unloaded', async () => {
    // The tick runs until the test sets `go`, so it is under way, for certain, when the installation is stopped.
    const installation = await env.activePlugin(`definePlugin({ cron: [{ name: 'tick', schedule: '* * * * *', handler: async () => {
      await platform.kv.set('started', true);
      while (!(await platform.kv.get('go'))) {}
      await platform.kv.set('finished', true);
    } }] })`);
    await env.runtime.load(installation);
    const outcome = env.runtime.call(installation, { kind: 'cron', name: 'tick' }, { name: 'tick', firedAt: new Date().toISOString() }, CALL).then(
      () => null,
      (error: unknown) => error,
    );
    expect(await eventually(() => env.kv.get(installation.id, 'started'), (v) => v !== null)).toBe(true);

    await env.runtime.forget(installation.applicationId, installation.id);
    const error = await outcome;
    await env.kv.set(installation.id, 'go', true, { maxKeys: 10_000 });

    expect(error).toBeInstanceOf(PluginCallError);
    expect((error as PluginCallError).reason).toBe('unavailable');
    expect(env.sandbox.isLoaded(installation.id)).toBe(false);
    expect(await env.kv.get(installation.id, 'finished')).toBeNull();
    const runs = await db.dataSource.query(`SELECT kind, ok, error FROM plugin_runs WHERE installation_id = $1`, [installation.id]);
    expect(runs).toEqual([]);
    const after = await env.installations.findById(installation.id);
    expect(after).toMatchObject({ consecutiveFailures: 0, lastError: null });
  });

  it('a call that fails on its own is still the plugin’s failure (the stop marks only the calls it cut)', async () => {
    const installation = await env.activePlugin(`definePlugin({ cron: [{ name: 'tick', schedule: '* * * * *', handler: async () => { throw new Error('broken tick'); } }] })`);
    await env.runtime.load(installation);
    await expect(env.runtime.call(installation, { kind: 'cron', name: 'tick' }, { name: 'tick', firedAt: new Date().toISOString() }, CALL)).rejects.toThrow('broken tick');
    await env.runtime.forget(installation.applicationId, installation.id);
    const runs = await db.dataSource.query(`SELECT kind, ok FROM plugin_runs WHERE installation_id = $1`, [installation.id]);
    expect(runs).toEqual([{ kind: 'cron', ok: false }]);
    expect(await env.installations.findById(installation.id)).toMatchObject({ consecutiveFailures: 1 });
  });
});
