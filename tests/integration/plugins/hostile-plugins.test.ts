import { createServer, type Server } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { PluginCallError } from '../../../core/plugins/domain/plugin-errors';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import type { Database } from '../../../adapters/persistence/data-source';
import { eventually, runtimeOn } from './plugin-runtime-support';

const HOOK = { kind: 'hook', name: 'message:beforeSend' } as const;
const EVENT_LIMITS = { cpuMs: 1000, wallMs: 10_000 };

describe.each(DATABASE_KINDS)('hostile plugins fail alone (%s)', (database) => {
  let db: Database;
  let env: ReturnType<typeof runtimeOn>;
  let tls: { server: Server; port: number; cert: Buffer };

  beforeAll(async () => {
    db = await openTestDatabase(database);
    tls = await localTlsServer();
    env = runtimeOn(db, { maxKeys: 10_000 });
  });
  afterAll(async () => {
    await env.close();
    tls.server.close();
    await db.close();
  });

  /** A well-behaved plugin in another application that must keep working whatever the hostile one does. */
  async function bystander() {
    const installation = await env.activePlugin(`definePlugin({ hooks: { 'message:beforeSend': (m) => ({ ...m, content: m.content + ' ok' }) } })`);
    return async () => {
      const loaded = await env.runtime.load(installation);
      return env.runtime.call(loaded.installation, HOOK, { content: 'still' }, env.runtime.limits.hook);
    };
  }

  async function callHook(source: string, manifest: Record<string, unknown> = {}, limits = env.runtime.limits.hook) {
    const installation = await env.activePlugin(source, manifest);
    await env.runtime.load(installation);
    const error = await env.runtime.call(installation, HOOK, { content: 'x' }, limits).then(
      () => null,
      (e: unknown) => e as PluginCallError,
    );
    const [row] = await db.dataSource.query(`SELECT last_error, failure_count::int AS failures FROM plugin_installations WHERE id = $1`, [installation.id]);
    return { error, row, installation };
  }

  it('stops an infinite loop at the CPU limit and keeps serving other installations', async () => {
    const other = await bystander();
    const { error, row } = await callHook(`definePlugin({ hooks: { 'message:beforeSend': () => { while (true) {} } } })`);
    expect(error).toBeInstanceOf(PluginCallError);
    expect(error!.reason).toBe('timeout');
    expect(row.last_error).toMatch(/time limit/);
    expect(row.failures).toBe(1);
    expect(await other()).toEqual({ content: 'still ok' });
  });

  it('stops a 1 GB allocation at the memory limit, disposing only that isolate', async () => {
    const other = await bystander();
    const { error, installation } = await callHook(`definePlugin({ hooks: { 'message:beforeSend': () => { const a = []; for (;;) a.push(new Array(1e6).fill(Math.random())); } } })`);
    expect(error).toBeInstanceOf(PluginCallError);
    expect(['memory', 'timeout']).toContain(error!.reason);
    expect(env.sandbox.isLoaded(installation.id)).toBe(false);
    expect(await other()).toEqual({ content: 'still ok' });
    // A plain 1 GB buffer at load time is refused the same way.
    const big = await env.activePlugin(`const huge = new Uint8Array(1024 * 1024 * 1024); definePlugin({})`);
    await expect(env.runtime.load(big)).rejects.toBeInstanceOf(PluginCallError);
  });

  it.each([
    ['require("fs")', `definePlugin({ hooks: { 'message:beforeSend': () => require('fs').readFileSync('/etc/passwd', 'utf8') } })`, /require is not defined/],
    ['process.exit()', `definePlugin({ hooks: { 'message:beforeSend': () => process.exit(1) } })`, /process is not defined/],
    ['a function as result', `definePlugin({ hooks: { 'message:beforeSend': () => ({ content: () => 1, n: 10n }) } })`, /not JSON/],
    ['a 10 MB string', `definePlugin({ hooks: { 'message:beforeSend': () => ({ content: 'x'.repeat(10 * 1024 * 1024) }) } })`, /over the limit/],
  ])('refuses %s with a clear error', async (_case, source, message) => {
    // These refusals are not about time: a wall limit a loaded machine cannot reach while a 10 MB answer is built and
    // copied out, so the refusal under test is the one that trips (the time limits have their own tests above).
    const { error, row } = await callHook(source, {}, { ...env.runtime.limits.hook, wallMs: 30_000 });
    expect(error).toBeInstanceOf(PluginCallError);
    expect(error!.message).toMatch(message);
    expect(row.last_error).toMatch(message);
    expect(typeof process.exit).toBe('function');
  });

  it.each([
    ['plain http to 127.0.0.1', (port: number) => `http://127.0.0.1:${port}/`, ['api.example.com'], /only https/],
    ['https to 127.0.0.1', (port: number) => `https://127.0.0.1:${port}/`, ['api.example.com'], /127.0.0.1 is not in the plugin's permissions.hosts/],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', ['api.example.com'], /only https/],
    ['the metadata address over https', () => 'https://169.254.169.254/latest/meta-data/', ['api.example.com'], /169.254.169.254 is not in the plugin's permissions.hosts/],
    ['a host not in its permissions', () => 'https://example.org/', ['api.example.com'], /example.org is not in the plugin's permissions.hosts/],
    ['a permitted name that resolves to loopback', (port: number) => `https://localhost:${port}/`, ['localhost'], /not allowed|private|loopback|DNS lookup/i],
  ])('refuses a fetch to %s', async (_case, url, hosts, message) => {
    // The manifest check refuses IP literals and bare names; the raw manifest here shows the network layer refusing on its own.
    const installation = await env.activePlugin(
      `definePlugin({ on: { go: async () => { try { await platform.fetch(${JSON.stringify(url(tls.port))}); return 'fetched'; } catch (e) { return e.message; } } } })`,
      { permissions: { hosts } },
      undefined,
      undefined,
      { trustManifest: true },
    );
    await env.runtime.load(installation);
    const result = await env.runtime.call(installation, { kind: 'event', name: 'go' }, {}, EVENT_LIMITS);
    expect(result).toMatch(message);
  });

  it('fetches from a permitted host when the operator allows its address (the test server on 127.0.0.1), without following redirects', async () => {
    const trusting = runtimeOn(db, { http: { ca: tls.cert, allowIPAddressList: ['127.0.0.1'] } });
    try {
      const installation = await trusting.activePlugin(
        `definePlugin({ on: { go: async () => { const r = await platform.fetch('https://localhost:${tls.port}/data', { headers: { accept: 'text/plain' } }); const moved = await platform.fetch('https://localhost:${tls.port}/redirect'); return { status: r.status, ok: r.ok, body: r.text(), moved: moved.status, location: moved.headers.location }; } } })`,
        { permissions: { hosts: ['localhost'] } },
        undefined,
        undefined,
        { trustManifest: true },
      );
      await trusting.runtime.load(installation);
      expect(await trusting.runtime.call(installation, { kind: 'event', name: 'go' }, {}, EVENT_LIMITS)).toEqual({ status: 200, ok: true, body: 'secret', moved: 302, location: 'https://169.254.169.254/' });
    } finally {
      await trusting.close();
    }
  });

  it('delivers events between plugins and stops a recursive emitter at depth 8', async () => {
    const app = await env.anApplication();
    const pinger = await env.activePlugin(
      `definePlugin({ on: { ping: async (e) => { await platform.kv.set('seen:' + e.data.n, e.data.n); platform.events.emit('ping', { n: e.data.n + 1 }); } } })`,
      {},
      app,
    );
    await env.runtime.load(pinger);
    env.runtime.emit(app.id, pinger, 'ping', { n: 1 }, 0);
    const keys = await eventually(() => env.kv.keys(pinger.id, 'seen:'), (k) => k.length >= 8);
    await new Promise((r) => setTimeout(r, 300));
    expect((await env.kv.keys(pinger.id, 'seen:')).length).toBe(8);
    expect(keys.length).toBe(8);
    const [row] = await db.dataSource.query(`SELECT last_error FROM plugin_installations WHERE id = $1`, [pinger.id]);
    expect(row.last_error).toMatch(/limited to 8 nested emits/);
  });

  it('refuses a KV value over 64 KB and the key past the quota, storing nothing', async () => {
    const small = runtimeOn(db, { maxKeys: 5 });
    try {
      const installation = await small.activePlugin(
        `definePlugin({ on: {
           big: async () => { try { await platform.kv.set('big', 'x'.repeat(65 * 1024)); return 'stored'; } catch (e) { return e.message; } },
           fill: async ({ data }) => { const out = []; for (let i = 0; i < data.n; i++) { try { await platform.kv.set('k' + i, i); out.push('ok'); } catch (e) { out.push(e.message); } } return out; },
         } })`,
      );
      await small.runtime.load(installation);
      expect(await small.runtime.call(installation, { kind: 'event', name: 'big' }, {}, EVENT_LIMITS)).toMatch(/over the 64 KB limit/);
      expect(await small.kv.get(installation.id, 'big')).toBeNull();
      const results = (await small.runtime.call(installation, { kind: 'event', name: 'fill' }, { data: { n: 6 } }, EVENT_LIMITS)) as string[];
      expect(results.slice(0, 5)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      expect(results[5]).toMatch(/at most 5 keys/);
      expect(await small.kv.count(installation.id)).toBe(5);
      // Writing over an existing key is not a new key.
      await expect(small.kv.set(installation.id, 'k0', 'again', { maxKeys: 5 })).resolves.toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('holds 10,000 keys and refuses the 10,001st', async () => {
    const installation = await env.activePlugin(`definePlugin({ on: { one: async () => { try { await platform.kv.set('k10000', 1); return 'stored'; } catch (e) { return e.message; } } } })`);
    await db.dataSource.query(`INSERT INTO plugin_kv (installation_id, key, value) SELECT $1, 'k' || g, to_jsonb(g) FROM generate_series(0, 9999) g`, [installation.id]);
    await env.runtime.load(installation);
    expect(await env.runtime.call(installation, { kind: 'event', name: 'one' }, {}, EVENT_LIMITS)).toMatch(/at most 10000 keys/);
    expect(await env.kv.count(installation.id)).toBe(10_000);
  });

  it('keeps two installations of one plugin apart in KV', async () => {
    const source = `definePlugin({ on: { put: async ({ data }) => { await platform.kv.set('shared', data); return platform.kv.find({ limit: 10 }); } } })`;
    const first = await env.activePlugin(source);
    const second = await env.activePlugin(source, {}, undefined, first.pluginId);
    await env.runtime.load(first);
    await env.runtime.load(second);
    await env.runtime.call(first, { kind: 'event', name: 'put' }, { data: { from: 'first' } }, EVENT_LIMITS);
    const seen = await env.runtime.call(second, { kind: 'event', name: 'put' }, { data: { from: 'second' } }, EVENT_LIMITS);
    expect(seen).toEqual([{ key: 'shared', value: { from: 'second' } }]);
    expect(await env.kv.get(first.id, 'shared')).toEqual({ from: 'first' });
  });

  it('trips the circuit breaker after 5 failures in a row, with the reason on the installation', async () => {
    const installation = await env.activePlugin(`definePlugin({ hooks: { 'message:beforeSend': () => { throw new Error('boom'); } } })`);
    await env.runtime.load(installation);
    for (let i = 0; i < 5; i++) await env.runtime.call(installation, HOOK, { content: 'x' }, env.runtime.limits.hook).catch(() => undefined);
    const [row] = await db.dataSource.query(`SELECT state, deactivation_reason, consecutive_failures FROM plugin_installations WHERE id = $1`, [installation.id]);
    expect(row.state).toBe('deactivated');
    expect(row.deactivation_reason).toMatch(/5 failures in a row; last: hook message:beforeSend: .*boom/);
    expect(env.sandbox.isLoaded(installation.id)).toBe(false);
  });
});

/** A local HTTPS server with a throwaway self-signed certificate (openssl), so no test reaches the internet. */
async function localTlsServer(): Promise<{ server: Server; port: number; cert: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  const cert = readFileSync(join(dir, 'cert.pem'));
  const server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'https://169.254.169.254/' });
      res.end();
      return;
    }
    res.end('secret');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port, cert };
}
