import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startServerProcess, stopAll } from './support/processes';
import { openMemoryCgroup, type MemoryCgroup } from '../tests/support/memory-cgroup';

/**
 * `npm run bench:memory` (issue 36): the resident memory of the all-in-one process, as `npm start` runs it
 * (ts-node on the sources) and as `node dist/apps/all/main.js` does, on the embedded PGlite and on
 * PostgreSQL. Each arm starts a fresh process and DATA_DIR and goes through, one after the other:
 * idle after start; a 32-client chat load (the provider emulator answering after 20 ms); 10,000 knowledge
 * chunks ingested (local embeddings) and searched; 50 plugin installations, each used by one chat turn.
 * Resident memory (VmRSS) is sampled every 100 ms; each phase reports its peak and what is left 5 s after.
 *
 * BENCH_ARMS (comma-separated) chooses the arms: `pglite` and `postgres` (npm start; the default),
 * `pglite-pg-defaults` (npm start on PGlite with PostgreSQL's own memory settings, the platform's before
 * issue 36, for a comparison in the same run), `dist-pglite` and `dist-postgres` (needs `npm run build`).
 * BENCH_DATABASE_URL is the PostgreSQL (default: TEST_DATABASE_URL); each run gets a schema of its own,
 * dropped at the end. BENCH_DURATION: seconds of chat load (default 15).
 * The `dist-pglite-*` arms add the process-level settings documented for a 1 GB server, one at a time or
 * together, in the measured process's environment: `-arena2` (MALLOC_ARENA_MAX=2, glibc's allocator arenas),
 * `-semi` (V8's --max-semi-space-size=4), `-old` (--max-old-space-size=256), `-small` (all three).
 * BENCH_PHASES (comma-separated, default all): `idle`, `chat`, `knowledge`, `plugins`; the later phases
 * need `chat` (it creates the application).
 *
 * Issue 49: `npm start` now runs the compiled server (`dist/start`, kept current by `apps/all/scripts/ensure-built.mjs`)
 * with the V8 flags `apps/all/scripts/node-flags.mjs` chooses for the machine (`--liftoff-only` under 2 GiB). The arms
 * `start` (what `npm start` runs here), `start-optimizing` and `start-baseline` (the WebAssembly tiers forced either
 * way) and `sources-baseline` (ts-node with `--liftoff-only`) compare them. Where a memory cgroup can be made (root),
 * each arm runs in one of its own, BENCH_MEMORY_LIMIT_MB (default: no limit) as its limit, and each phase also reports
 * the group's peak: page cache and child processes (initdb on a new data folder) included, as the kernel counts
 * them against a limit; the table's last columns give the start's group peak and whether the kernel killed anything.
 */
const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CHUNKS = 10_000;
const DOCUMENTS = 10;
const PLUGINS = 50;
const ROOT = join(__dirname, '..');

interface Arm {
  name: string;
  entry: 'sources' | 'dist' | 'start';
  /** V8 flags on the command line (NODE_OPTIONS refuses --liftoff-only). */
  flags?: string[];
  database: 'pglite' | 'postgres';
  env?: Record<string, string>;
}

/** The V8 flags `npm start` chooses on this machine (apps/all/scripts/node-flags.mjs). */
const nodeFlags = (): string[] =>
  spawnSync(process.execPath, [join(__dirname, '..', 'apps', 'all', 'scripts', 'node-flags.mjs')], { encoding: 'utf8' }).stdout.split(' ').filter(Boolean);

const START_FLAGS = nodeFlags();

const ARMS: Record<string, Arm> = {
  pglite: { name: 'ts-node (npm start before issue 49), PGlite', entry: 'sources', database: 'pglite' },
  'sources-baseline': { name: 'ts-node --liftoff-only, PGlite', entry: 'sources', database: 'pglite', flags: ['--liftoff-only'] },
  start: { name: `npm start (dist/start${START_FLAGS.length ? ` ${START_FLAGS.join(' ')}` : ''}), PGlite`, entry: 'start', database: 'pglite', flags: START_FLAGS },
  'start-optimizing': { name: 'dist/start, both WebAssembly tiers, PGlite', entry: 'start', database: 'pglite', flags: [] },
  'start-baseline': { name: 'dist/start --liftoff-only, PGlite', entry: 'start', database: 'pglite', flags: ['--liftoff-only'] },
  'pglite-pg-defaults': {
    name: "npm start, PGlite with PostgreSQL's memory defaults",
    entry: 'sources',
    database: 'pglite',
    env: { PGLITE_SHARED_BUFFERS_MB: '128', PGLITE_MAINTENANCE_WORK_MEM_MB: '64' },
  },
  postgres: { name: 'npm start, PostgreSQL', entry: 'sources', database: 'postgres' },
  'dist-pglite': { name: 'node dist/apps/all/main.js, PGlite', entry: 'dist', database: 'pglite' },
  'dist-postgres': { name: 'node dist/apps/all/main.js, PostgreSQL', entry: 'dist', database: 'postgres' },
  'dist-pglite-arena2': { name: 'dist, PGlite, MALLOC_ARENA_MAX=2', entry: 'dist', database: 'pglite', env: { MALLOC_ARENA_MAX: '2' } },
  'dist-pglite-semi': { name: 'dist, PGlite, --max-semi-space-size=4', entry: 'dist', database: 'pglite', env: { NODE_OPTIONS: '--max-semi-space-size=4' } },
  'dist-pglite-old': { name: 'dist, PGlite, --max-old-space-size=256', entry: 'dist', database: 'pglite', env: { NODE_OPTIONS: '--max-old-space-size=256' } },
  'dist-pglite-small': {
    name: 'dist, PGlite, MALLOC_ARENA_MAX=2 --max-semi-space-size=4 --max-old-space-size=256',
    entry: 'dist',
    database: 'pglite',
    env: { MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--max-semi-space-size=4 --max-old-space-size=256' },
  },
};
const PHASES = new Set((process.env.BENCH_PHASES ?? 'idle,chat,knowledge,plugins').split(',').map((p) => p.trim()));

interface Phase {
  name: string;
  peakMb: number;
  afterMb: number;
  note: string;
}

async function main(): Promise<void> {
  const arms = (process.env.BENCH_ARMS ?? 'start,pglite,postgres').split(',').map((name) => {
    const arm = ARMS[name.trim()];
    if (!arm) throw new Error(`unknown arm ${name}; one of ${Object.keys(ARMS).join(', ')}`);
    return arm;
  });
  const emulator = await startServerProcess<{ url: string; baseUrls: Record<string, string> }>('support/emulator.server.ts', { BENCH_DELAY_MS: '20' });
  console.log(`Memory benchmark: node ${process.version}, ${DURATION_S} s of chat load at 32 clients, ${CHUNKS.toLocaleString('en')} chunks, ${PLUGINS} plugins`);
  const results: { arm: Arm; phases: Phase[]; hwmMb: number; group?: GroupFigures }[] = [];
  if (arms.some((arm) => arm.entry === 'start')) spawnSync(process.execPath, [join(ROOT, 'apps', 'all', 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
  try {
    for (const arm of arms) {
      if (arm.entry === 'dist' && !existsSync(join(ROOT, 'dist', 'apps', 'all', 'main.js'))) {
        console.log(`\n${arm.name}: skipped, dist/apps/all/main.js is missing (npm run build)`);
        continue;
      }
      try {
        results.push(await runArm(arm, emulator.info.baseUrls));
      } catch (error) {
        // Under BENCH_MEMORY_LIMIT_MB an arm may be killed for memory: reported, and the next arm runs.
        console.log(`${arm.name}: ${(error as Error).message}`);
      }
    }
  } finally {
    stopAll([emulator.child]);
  }
  console.log('\n| arm | ' + results[0]?.phases.map((p) => `${p.name} (peak / after)`).join(' | ') + ' | high-water mark | start, group peak | group peak | OOM kills |');
  console.log('|---|' + (results[0]?.phases.map(() => '---').join('|') ?? '') + '|---|---|---|---|');
  for (const r of results) {
    const g = r.group;
    console.log(`| ${r.arm.name} | ${r.phases.map((p) => `${p.peakMb} / ${p.afterMb} MB`).join(' | ')} | ${r.hwmMb} MB | ${g ? `${g.startPeakMb} MB` : 'n/a'} | ${g ? `${g.peakMb} MB` : 'n/a'} | ${g ? g.oomKills : 'n/a'} |`);
  }
}

interface GroupFigures {
  startPeakMb: number;
  peakMb: number;
  oomKills: number;
}

async function runArm(arm: Arm, providerUrls: Record<string, string>): Promise<{ arm: Arm; phases: Phase[]; hwmMb: number; group?: GroupFigures }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const [port, aiPort, marketplacePort] = [await freePort(), await freePort(), await freePort()];
  let schema: string | undefined;
  let databaseUrl: string | undefined;
  if (arm.database === 'postgres') {
    const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('the PostgreSQL arms need BENCH_DATABASE_URL (or TEST_DATABASE_URL)');
    schema = `bench_mem_${randomBytes(4).toString('hex')}`;
    await onPostgres(base, `CREATE SCHEMA ${schema}`);
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    databaseUrl = url.toString();
  }
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    PORT: String(port),
    AI_SERVICE_PORT: String(aiPort),
    MARKETPLACE_PORT: String(marketplacePort),
    ADMIN_EMAILS: 'bench-admin@example.com',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    PROVIDER_A_API_KEY: 'sk-bench-platform-0000',
    PROVIDER_A_BASE_URL: providerUrls.provider_a!,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...arm.env,
  };
  // An arm's V8 flags go with the ones npm passes (.npmrc: --no-node-snapshot, which the plugin sandbox needs).
  if (arm.env?.NODE_OPTIONS) env.NODE_OPTIONS = [process.env.NODE_OPTIONS, arm.env.NODE_OPTIONS].filter(Boolean).join(' ');
  if (!databaseUrl) delete env.DATABASE_URL;
  delete env.REDIS_URL; // the small server's setup: one process, no Redis
  const limitMb = Number(process.env.BENCH_MEMORY_LIMIT_MB ?? 0);
  const opened = openMemoryCgroup(`bench-memory-${process.pid}-${randomBytes(2).toString('hex')}`, limitMb > 0 ? limitMb * 1024 * 1024 : 64 * 1024 ** 3);
  const cgroup: MemoryCgroup | undefined = 'reason' in opened ? undefined : opened;
  if (!cgroup) console.log(`(no memory cgroup: ${(opened as { reason: string }).reason})`);
  const execArgv = arm.flags ?? [];
  const script =
    arm.entry === 'dist' ? [join(ROOT, 'dist', 'apps', 'all', 'main.js')]
    : arm.entry === 'start' ? [join(ROOT, 'dist', 'start', 'apps', 'all', 'main.js')]
    : [join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--swc', join(ROOT, 'apps', 'all', 'main.ts')];
  // In the group from its first instruction: a shell joins it, then becomes node.
  const child = cgroup
    ? spawn('sh', ['-c', cgroup.wrap(`${JSON.stringify(process.execPath)} ${[...execArgv, ...script].map((a) => JSON.stringify(a)).join(' ')}`)], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] })
    : spawn(process.execPath, [...execArgv, ...script], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const pid = child.pid!;
  let group: GroupFigures | undefined;
  const base = `http://127.0.0.1:${port}`;
  const phases: Phase[] = [];
  let hwmMb = 0;
  const sampler = new Sampler(pid);
  console.log(`\n## ${arm.name} (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  try {
    run: {
    let t0 = Date.now();
    await waitHealthy(base, child);
    const startedMs = Date.now() - t0;
    await sleep(10_000);
    if (cgroup) group = { startPeakMb: Math.round((cgroup.peakBytes() ?? 0) / 1048576), peakMb: 0, oomKills: cgroup.oomKills() };
    phases.push({ name: 'idle after start', ...sampler.phase(), note: `ready in ${(startedMs / 1000).toFixed(1)} s, measured 10 s later` });
    sampler.reset();

    if (!PHASES.has('chat')) break run;
    const client = new Api(base);
    let owner = await client.owner();
    const app = await client.post('/api/applications', { name: 'Bench' }, owner);
    const conversations: string[] = [];
    for (let i = 0; i < 64; i++) conversations.push((await client.post('/api/conversations', { applicationId: app.id }, owner)).id);
    await load(base, owner, conversations, 32, 2);
    sampler.reset();
    owner = await client.fresh();
    const chat = await load(base, owner, conversations, 32, DURATION_S);
    await sleep(5_000);
    phases.push({ name: '32-client chat', ...sampler.phase(), note: `${chat.requests.average.toFixed(0)} turns/s, p50 ${chat.latency.p50} ms` });
    sampler.reset();
    if (!PHASES.has('knowledge')) break run;

    t0 = Date.now();
    const chunks = await ingest(client, await client.fresh(), app.id);
    const ingestS = (Date.now() - t0) / 1000;
    const searches: number[] = [];
    for (let i = 0; i < 50; i++) {
      const s0 = performance.now();
      const found = await client.get(`/api/knowledge/search?applicationId=${app.id}&query=${encodeURIComponent(`lantern harbour ${WORDS[i % WORDS.length]}`)}`, await client.fresh());
      if (!Array.isArray(found) || found.length === 0) throw new Error('the search found nothing');
      searches.push(performance.now() - s0);
    }
    await sleep(5_000);
    searches.sort((a, b) => a - b);
    phases.push({ name: `${CHUNKS.toLocaleString('en')} chunks`, ...sampler.phase(), note: `${chunks} chunks in ${ingestS.toFixed(0)} s, search p50 ${searches[25]!.toFixed(1)} ms` });
    sampler.reset();
    if (!PHASES.has('plugins')) break run;

    t0 = Date.now();
    await plugins(client);
    const pluginsS = (Date.now() - t0) / 1000;
    await sleep(5_000);
    phases.push({ name: `${PLUGINS} plugins`, ...sampler.phase(), note: `installed and used in ${pluginsS.toFixed(0)} s` });
    }
  } finally {
    sampler.stop();
    hwmMb = statusMb(pid, 'VmHWM');
    if (cgroup) group = { startPeakMb: group?.startPeakMb ?? 0, peakMb: Math.round((cgroup.peakBytes() ?? 0) / 1048576), oomKills: cgroup.oomKills() };
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    rmSync(dataDir, { recursive: true, force: true });
    cgroup?.remove();
    if (schema) await onPostgres((process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)!, `DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    for (const p of phases) console.log(`${p.name.padEnd(20)} peak ${String(p.peakMb).padStart(5)} MB   after ${String(p.afterMb).padStart(5)} MB   ${p.note}`);
    console.log(`high-water mark (VmHWM) ${hwmMb} MB; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (group) console.log(`memory cgroup${limitMb ? ` (limit ${limitMb} MB)` : ''}: start peak ${group.startPeakMb} MB, peak ${group.peakMb} MB, OOM kills ${group.oomKills}`);
  }
  return { arm, phases, hwmMb, ...(group ? { group } : {}) };
}

/** VmRSS of the process every 100 ms: the peak of the phase, and the last reading. */
class Sampler {
  private peak = 0;
  private last = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 100);
  }
  private sample(): void {
    this.last = statusMb(this.pid, 'VmRSS');
    this.peak = Math.max(this.peak, this.last);
  }
  phase(): { peakMb: number; afterMb: number } {
    this.sample();
    return { peakMb: this.peak, afterMb: this.last };
  }
  reset(): void {
    this.peak = 0;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

class Api {
  constructor(readonly base: string) {}
  async request(method: string, path: string, body: unknown, token?: string): Promise<any> {
    const res = await fetch(this.base + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
  post = (path: string, body: unknown, token?: string) => this.request('POST', path, body, token);
  put = (path: string, body: unknown, token?: string) => this.request('PUT', path, body, token);
  get = (path: string, token?: string) => this.request('GET', path, undefined, token);

  private email = '';
  private token = '';
  private tokenAt = 0;

  /** Registers an Enterprise user (no plan limits) and answers its token. */
  async owner(): Promise<string> {
    this.email = `bench-${randomBytes(4).toString('hex')}@example.com`;
    const session = await this.post('/api/auth/register', { email: this.email, password: 'bench password', displayName: 'Bench' });
    const admin = await this.post('/api/auth/register', { email: 'bench-admin@example.com', password: 'bench password', displayName: 'Admin' });
    await this.put(`/api/admin/users/${session.user.id}/plan`, { plan: 'enterprise' }, admin.access_token);
    [this.token, this.tokenAt] = [session.access_token as string, Date.now()];
    return this.token;
  }

  /** The owner's token, signed in again once it is 5 minutes old (access tokens last 15; a loaded machine makes phases long). */
  async fresh(): Promise<string> {
    if (Date.now() - this.tokenAt > 5 * 60_000) {
      const session = await this.post('/api/auth/login', { email: this.email, password: 'bench password' });
      [this.token, this.tokenAt] = [session.access_token as string, Date.now()];
    }
    return this.token;
  }
}

function load(base: string, token: string, conversations: string[], connections: number, duration: number): Promise<autocannon.Result> {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content: 'hi', provider: 'provider_a', model: 'gpt-4o-mini' }),
        connections,
        duration,
        requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/api/conversations/${conversations[next++ % conversations.length]}/messages` }) }],
      },
      (err, result) => {
        if (err) return reject(err);
        if (result.non2xx > 0) return reject(new Error(`chat load: ${result.non2xx} non-2xx answers`));
        resolve(result);
      },
    );
  });
}

const WORDS = ['copper', 'meadow', 'signal', 'harvest', 'quartz', 'ember', 'glacier', 'orchard', 'compass', 'lantern', 'harbour', 'falcon', 'velvet', 'thunder', 'pepper', 'marble'];

/** A document of about `chunks` chunks at the default chunk size (1,000 characters, 200 overlapping). */
function documentText(seed: number, chunks: number): string {
  const sentences: string[] = [];
  let length = 0;
  for (let i = 0; length < chunks * 800; i++) {
    const words = Array.from({ length: 12 }, (_, j) => WORDS[(seed * 7 + i * 3 + j * 5) % WORDS.length]);
    const sentence = `Section ${seed}.${i}: ${words.join(' ')}.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

/** Uploads the documents (local embeddings) and waits until every one is ready; answers the chunks stored. */
async function ingest(api: Api, token: string, applicationId: string): Promise<number> {
  // The uploads go out at once with `token`; the wait for processing signs in again as needed.
  const ids: string[] = [];
  for (let d = 0; d < DOCUMENTS; d++) {
    const form = new FormData();
    form.append('applicationId', applicationId);
    form.append('file', new Blob([documentText(d, CHUNKS / DOCUMENTS)], { type: 'text/plain' }), `handbook-${d}.txt`);
    const res = await fetch(`${api.base}/api/knowledge`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  let chunks = 0;
  for (const id of ids) {
    for (;;) {
      const doc = await api.get(`/api/knowledge/${id}`, await api.fresh());
      if (doc.status === 'ready') {
        chunks += doc.chunkCount as number;
        break;
      }
      if (doc.status !== 'processing') throw new Error(`document ${id} ended ${doc.status}`);
      await sleep(250);
    }
  }
  return chunks;
}

/** PLUGINS applications with one `message:beforeSend` plugin each, and one chat turn in each. */
async function plugins(api: Api): Promise<void> {
  for (let i = 0; i < PLUGINS; i++) {
    const token = await api.fresh();
    const app = await api.post('/api/applications', { name: `Plugins ${i}` }, token);
    const source = `definePlugin({ hooks: { 'message:beforeSend': (m) => ({ ...m, content: m.content.replace(/darn/gi, '****') + ' #${i}' }) } })`;
    const plugin = await api.post('/api/plugins', { manifest: { name: `bench-memory-${randomBytes(3).toString('hex')}-${i}`, version: '1.0.0', main: 'index.js' }, source }, token);
    const installed = await api.post(`/api/applications/${app.id}/plugins`, { pluginId: plugin.id }, token);
    await api.put(`/api/applications/${app.id}/plugins/${installed.id}/activate`, undefined, token);
    const conversation = await api.post('/api/conversations', { applicationId: app.id }, token);
    await api.post(`/api/conversations/${conversation.id}/messages`, { content: 'well darn, hello', provider: 'provider_a', model: 'gpt-4o-mini' }, token);
  }
}

async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 360_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the platform exited with ${child.exitCode ?? child.signalCode}`);
    const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
    if (ok) return;
    if (Date.now() > until) throw new Error('the platform did not become healthy in 6 minutes');
    await sleep(200);
  }
}

async function onPostgres(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
