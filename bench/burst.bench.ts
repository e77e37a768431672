import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServerProcess, stopAll } from './support/processes';

/**
 * `npm run bench:burst` (issue 49): many chat streams opened at once on one `npm start` (the compiled server on the
 * embedded database, a Pro owner so that every turn holds its share of the quota). Each burst opens its streams on as
 * many conversations at the same moment; per stream, the time from the burst's start to its first content chunk, and
 * whether it finished whole (every chunk, then `done`). The provider emulator answers after 20 ms, 10 ms between
 * its chunks.
 *
 * BENCH_BURSTS (comma-separated, default `200,1000`): the burst sizes, each run BENCH_BURST_ROUNDS (2) times after one
 * unmeasured burst of 50. BENCH_ROOTS (comma-separated, default this tree): source trees to run one after the other,
 * e.g. this one and a checkout of another commit (`git worktree add` or `git archive`), to compare code in the same
 * sitting; each is compiled with this tree's `apps/all/scripts/ensure-built.mjs` logic (its own copy, if it has one)
 * and started as `npm start` starts it, with BENCH_NODE_FLAGS (default none) before the entry.
 */
const BURSTS = (process.env.BENCH_BURSTS ?? '200,1000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 2);
const HERE = join(__dirname, '..');
const ROOTS = (process.env.BENCH_ROOTS ?? HERE).split(',').map((r) => resolve(r.trim()));
const CHUNKS = 9;

async function main(): Promise<void> {
  const emulator = await startServerProcess<{ url: string; baseUrls: Record<string, string> }>('support/emulator.server.ts', { BENCH_DELAY_MS: '20' });
  await fetch(`${emulator.info.url}/__emulator/behaviour`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delayMs: 20, chunkDelayMs: 10 }) });
  const table: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // The roots alternate round by round, so that each sees the machine's load in turn.
      for (const root of ROOTS) {
        const server = await startPlatform(root, emulator.info.baseUrls.provider_a!);
        try {
          const setup = await prepare(server.base, Math.max(...BURSTS));
          await burst(server.base, setup, 50);
          for (const size of BURSTS) {
            const load = loadavg()[0]!.toFixed(1);
            const r = await burst(server.base, setup, size);
            const line = `| ${root === HERE ? 'this tree' : root} | ${size} | ${r.whole}/${size} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.lastDone.toFixed(0)} | ${load} |`;
            console.log(line);
            table.push(line);
          }
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    stopAll([emulator.child]);
  }
  console.log('\n| code | streams at once | finished whole | first chunk p50 ms | first chunk p99 ms | last done ms | load average |');
  console.log('|---|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
}

interface Setup {
  token: string;
  conversations: string[];
}

async function startPlatform(root: string, providerUrl: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const builder = existsSync(join(root, 'apps', 'all', 'scripts', 'ensure-built.mjs')) ? join(root, 'apps', 'all', 'scripts', 'ensure-built.mjs') : null;
  if (builder) spawnSync(process.execPath, [builder], { cwd: root, stdio: 'inherit' });
  else spawnSync(process.execPath, ['-e', buildElsewhere(root)], { cwd: HERE, stdio: 'inherit' });
  const entry = join(root, 'dist', 'start', 'apps', 'all', 'main.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-burst-'));
  const [port, aiPort, marketplacePort] = [await freePort(), await freePort(), await freePort()];
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    PORT: String(port),
    AI_SERVICE_PORT: String(aiPort),
    MARKETPLACE_PORT: String(marketplacePort),
    ADMIN_EMAILS: 'bench-admin@example.com',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    PROVIDER_A_API_KEY: 'sk-bench-platform-0000',
    PROVIDER_A_BASE_URL: providerUrl,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...flags, entry], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the platform in ${root} exited with ${child.exitCode}`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > until) throw new Error('the platform did not start in 5 minutes');
    await sleep(200);
  }
  return {
    base,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A tree without the compile script (an older commit): compiled with this tree's, pointed at that root. */
function buildElsewhere(root: string): string {
  return [
    `const { readFileSync, writeFileSync, mkdtempSync } = require('node:fs');`,
    `const { join } = require('node:path');`,
    `const source = readFileSync(${JSON.stringify(join(HERE, 'apps', 'all', 'scripts', 'ensure-built.mjs'))}, 'utf8');`,
    `const dir = join(${JSON.stringify(root)}, 'apps', 'all', 'scripts');`,
    `require('node:fs').mkdirSync(dir, { recursive: true });`,
    `writeFileSync(join(dir, 'ensure-built.mjs'), source);`,
    `require('node:child_process').spawnSync(process.execPath, [join(dir, 'ensure-built.mjs')], { stdio: 'inherit' });`,
  ].join('\n');
}

async function prepare(base: string, count: number): Promise<Setup> {
  const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
    const res = await fetch(base + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const session = await post('/api/auth/register', { email: 'bench-burst@example.com', password: 'bench password', displayName: 'Bench' });
  const admin = await post('/api/auth/register', { email: 'bench-admin@example.com', password: 'bench password', displayName: 'Admin' });
  await post(`/api/admin/users/${session.user.id}/plan`, { plan: 'pro' }, admin.access_token, 'PUT');
  const app = await post('/api/applications', { name: 'Burst' }, session.access_token);
  const conversations: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const made = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => post('/api/conversations', { applicationId: app.id }, session.access_token)));
    conversations.push(...made.map((c) => c.id as string));
  }
  return { token: session.access_token, conversations };
}

async function burst(base: string, setup: Setup, size: number): Promise<{ whole: number; p50: number; p99: number; lastDone: number }> {
  const failures = new Map<string, number>();
  const t0 = performance.now();
  const results = await Promise.all(
    setup.conversations.slice(0, size).map(async (id) => {
      const res = await fetch(`${base}/api/conversations/${id}/stream`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${setup.token}` },
        body: JSON.stringify({ content: 'tell me a story about benchmarks and streams', provider: 'provider_a', model: 'gpt-4o-mini' }),
      });
      let first = NaN;
      let chunks = 0;
      let done = false;
      let text = '';
      const events: string[] = [];
      const decoder = new TextDecoder();
      for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(bytes, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const event = text.slice(0, end);
          text = text.slice(end + 2);
          events.push(event);
          if (/^event: chunk$/m.test(event) || /"type":"chunk"/.test(event)) {
            if (chunks++ === 0) first = performance.now() - t0;
          }
          if (/^event: done$/m.test(event) || /"type":"done"/.test(event)) done = true;
        }
      }
      const ok = res.status === 200 && done && chunks === CHUNKS;
      // What a stream that did not finish whole got instead (an error event, another status).
      if (!ok) failures.set(`${res.status} ${errorOf(events)} (${chunks} chunks${done ? ', done' : ''})`, (failures.get(`${res.status} ${errorOf(events)} (${chunks} chunks${done ? ', done' : ''})`) ?? 0) + 1);
      return { ok, first, finished: performance.now() - t0 };
    }),
  );
  for (const [what, count] of failures) console.log(`  ${count} of ${size} streams not whole: ${what}`);
  const firsts = results.map((r) => r.first).filter((f) => !Number.isNaN(f)).sort((a, b) => a - b);
  const at = (q: number) => firsts[Math.min(firsts.length - 1, Math.floor(q * firsts.length))] ?? NaN;
  return { whole: results.filter((r) => r.ok).length, p50: at(0.5), p99: at(0.99), lastDone: Math.max(...results.map((r) => r.finished)) };
}

const errorOf = (events: string[]): string => {
  const error = events.find((e) => /"type":"error"/.test(e));
  return error ? error.slice(0, 200) : 'no error event';
};

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
