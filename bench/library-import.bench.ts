import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npx ts-node --swc bench/library-import.bench.ts` (issue 51, item 5): what importing the library costs a
 * program that only wants `createInMemoryPlatform` in its tests. Each arm runs in a fresh Node process and
 * reports the modules loaded by the import (CommonJS modules in `require.cache`, and the packages they come
 * from), the wall time, the resident memory (added by the import, and the process's at the end) and the heap added, and the globals the import added (own names of
 * `globalThis` and of `Reflect`, compared before and after).
 *
 * Arms: `import` (the entry alone) and `turn` (the entry, `createInMemoryPlatform()`, a registration, an
 * application, a conversation and one scripted chat turn). BENCH_ENTRY chooses what is imported: `dist` (the
 * built library, `npm run build:lib`, as a consumer loads it; the default when dist/lib exists) or `sources`
 * (apps/platform/index.ts through ts-node with SWC; ts-node's own modules are counted before and left out).
 * BENCH_RUNS (default 3) fresh processes per arm; the table gives the median of each figure.
 */
const ROOT = join(__dirname, '..');
const DIST_ENTRY = join(ROOT, 'dist', 'lib', 'cjs', 'apps', 'platform', 'index.js');
const SOURCE_ENTRY = join(ROOT, 'apps', 'platform', 'index.ts');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ENTRY = (process.env.BENCH_ENTRY ?? (existsSync(DIST_ENTRY) ? 'dist' : 'sources')) as 'dist' | 'sources';

interface Sample {
  modules: number;
  packages: string[];
  ms: number;
  rssMb: number;
  rssTotalMb: number;
  heapMb: number;
  globals: string[];
  reflect: string[];
}

/** The measured program, run by a fresh `node`: plain CommonJS so nothing but the library is measured. */
const CHILD = String.raw`
const { performance } = require('node:perf_hooks');
const [entry, arm, register] = process.argv.slice(2);
if (register) require(register);
const before = new Set(Object.keys(require.cache));
const globalsBefore = new Set(Object.getOwnPropertyNames(globalThis));
const reflectBefore = new Set(Reflect.ownKeys(Reflect).map(String));
const rss0 = process.memoryUsage().rss;
const heap0 = process.memoryUsage().heapUsed;
const t0 = performance.now();
const library = require(entry);
const done = async () => {
  if (arm === 'turn') {
    const p = library.createInMemoryPlatform();
    const s = await p.auth.register.execute({ email: 'bench@example.com', password: 'correct horse battery', displayName: 'Bench' });
    const actor = library.actorOf(s.user);
    const app = await p.applications.create.execute({ actor, name: 'Bench' });
    const conversation = await p.conversations.create.execute({ actor, applicationId: app.id });
    p.model.reply('hello');
    await p.conversations.send.execute({ actor, id: conversation.id, content: 'hi' });
    await p.close();
  }
  const ms = performance.now() - t0;
  const added = Object.keys(require.cache).filter((f) => !before.has(f));
  const packages = new Set();
  for (const f of added) {
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(f);
    if (m) packages.add(m[1].replace(/\\/g, '/'));
  }
  const mem = process.memoryUsage();
  process.stdout.write(JSON.stringify({
    modules: added.length,
    packages: [...packages].sort(),
    ms,
    rssMb: (mem.rss - rss0) / 2 ** 20,
    rssTotalMb: mem.rss / 2 ** 20,
    heapMb: (mem.heapUsed - heap0) / 2 ** 20,
    globals: Object.getOwnPropertyNames(globalThis).filter((n) => !globalsBefore.has(n)),
    reflect: Reflect.ownKeys(Reflect).map(String).filter((n) => !reflectBefore.has(n)),
  }));
  process.exit(0);
};
done().catch((e) => { console.error(e); process.exit(1); });
`;

function run(arm: string, dir: string): Sample {
  const script = join(dir, 'child.js');
  writeFileSync(script, CHILD);
  const entry = ENTRY === 'dist' ? DIST_ENTRY : SOURCE_ENTRY;
  const register = ENTRY === 'dist' ? '' : require.resolve('ts-node/register/transpile-only');
  const env = { ...process.env, TS_NODE_SWC: 'true', TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') };
  const r = spawnSync(process.execPath, [script, entry, arm, register], { encoding: 'utf8', env, cwd: ROOT, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${arm} failed (${r.status}): ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout) as Sample;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function main() {
  if (ENTRY === 'dist' && !existsSync(DIST_ENTRY)) throw new Error('dist/lib is missing: run `npm run build:lib` first, or set BENCH_ENTRY=sources');
  const dir = mkdtempSync(join(tmpdir(), 'library-import-'));
  try {
    process.stdout.write(`entry: ${ENTRY}, ${RUNS} runs per arm, load average ${loadavg()[0]!.toFixed(1)}\n\n`);
    process.stdout.write('| arm | modules | packages | wall ms | RSS added MB | RSS MB | heap added MB |\n|---|---:|---:|---:|---:|---:|---:|\n');
    let last: Sample | undefined;
    for (const arm of ['import', 'turn']) {
      const samples = Array.from({ length: RUNS }, () => run(arm, dir));
      last = samples[0];
      const m = (f: (s: Sample) => number) => median(samples.map(f));
      process.stdout.write(
        `| ${arm} | ${m((s) => s.modules)} | ${m((s) => s.packages.length)} | ${m((s) => s.ms).toFixed(0)} | ${m((s) => s.rssMb).toFixed(0)} | ${m((s) => s.rssTotalMb).toFixed(0)} | ${m((s) => s.heapMb).toFixed(0)} |\n`,
      );
    }
    if (last) {
      process.stdout.write(`\npackages loaded (turn): ${last.packages.join(', ') || 'none'}\n`);
      process.stdout.write(`globals added: ${last.globals.join(', ') || 'none'}\n`);
      process.stdout.write(`Reflect methods added: ${last.reflect.join(', ') || 'none'}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
