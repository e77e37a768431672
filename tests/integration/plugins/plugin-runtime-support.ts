import { randomBytes } from 'node:crypto';
import { MemoryCache } from '../../../adapters/cache/memory.cache';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm.secret-box';
import type { Database } from '../../../adapters/persistence/data-source';
import { TypeOrmInstallationRepository } from '../../../adapters/persistence/plugins/type-orm-installation.repository';
import { TypeOrmPluginKvStore } from '../../../adapters/persistence/plugins/type-orm-plugin-kv.store';
import { TypeOrmPluginRepository } from '../../../adapters/persistence/plugins/type-orm-plugin.repository';
import { FilteredHttpsPluginHttp, type PluginHttpOptions } from '../../../adapters/plugins/filtered-https.plugin-http';
import { IsolatedVmPluginSandbox } from '../../../adapters/plugins/isolated-vm.plugin-sandbox';
import { parseManifest, type PluginManifest } from '../../../core/plugins/domain/manifest';
import type { Installation } from '../../../core/plugins/domain/installation';
import { PluginRuntime } from '../../../core/plugins/use-cases/plugin-runtime';

/** The plugin runtime on a real database and the isolated-vm sandbox, with helpers to install code directly. */
export function runtimeOn(db: Database, options: { http?: PluginHttpOptions; maxKeys?: number; hookCpuMs?: number } = {}) {
  const ds = db.dataSource;
  const plugins = new TypeOrmPluginRepository(ds);
  const installations = new TypeOrmInstallationRepository(ds);
  const kv = new TypeOrmPluginKvStore(ds);
  const sandbox = new IsolatedVmPluginSandbox({ memoryMb: 64 });
  const logs: { installationId: string; level: string; message: string }[] = [];
  const runtime = new PluginRuntime({
    plugins,
    installations,
    kv,
    sandbox,
    http: new FilteredHttpsPluginHttp(options.http),
    secretBox: new AesGcmSecretBox({ key: randomBytes(32).toString('hex') }),
    cache: new MemoryCache({ ttlMs: 0 }),
    limits: { hook: { cpuMs: options.hookCpuMs ?? 50, wallMs: 1000 }, call: { cpuMs: 1000, wallMs: 10_000 }, maxKeysPerInstallation: options.maxKeys ?? 10_000 },
    log: (installationId, level, message) => logs.push({ installationId, level, message }),
  });

  async function anApplication(): Promise<{ id: string; ownerId: string }> {
    const [user] = await ds.query(`INSERT INTO users (email, display_name, password_hash) VALUES ($1, 'T', 'x') RETURNING id`, [`u-${randomBytes(4).toString('hex')}@t.test`]);
    const [app] = await ds.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'A', $2) RETURNING id`, [user.id, `a-${randomBytes(4).toString('hex')}`]);
    return { id: app.id, ownerId: user.id };
  }

  /** Creates, installs and activates `source` in an application (a new one unless given). */
  async function activePlugin(
    source: string,
    manifest: Record<string, unknown> = {},
    app?: { id: string; ownerId: string },
    pluginId?: string,
    options: { trustManifest?: boolean } = {},
  ): Promise<Installation> {
    const application = app ?? (await anApplication());
    const id =
      pluginId ??
      (
        await plugins.create({
          ownerId: application.ownerId,
          manifest: options.trustManifest
            ? ({ ...(await parseManifest({ name: `p-${randomBytes(4).toString('hex')}`, version: '1.0.0', main: 'index.js' })), ...manifest } as PluginManifest)
            : await parseManifest({ name: `p-${randomBytes(4).toString('hex')}`, version: '1.0.0', main: 'index.js', ...manifest }),
          source,
        })
      ).id;
    const installed = await installations.create({ pluginId: id, applicationId: application.id, version: '1.0.0', settings: {}, sealedSecrets: {} });
    return (await installations.move(installed.id, ['installed'], 'activated'))!;
  }

  return { runtime, sandbox, plugins, installations, kv, logs, anApplication, activePlugin, close: () => Promise.all([runtime.close(), sandbox.close()]) };
}

export async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}
