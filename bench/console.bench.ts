import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../tests/browser/support/browser';
import { ensureConsoleBuilt } from '../tests/console/support/console-stack';
import { paidUserWithApplication, startCoreApi } from '../tests/support/test-stack';

/**
 * `npm run bench:console`: the console's budgets (docs/benchmarks/console.md): gzipped JavaScript of the
 * shell and of each area's lazy chunk; time to an interactive applications list holding 200 applications;
 * time from a streamed token's arrival in the page to its paint.
 */
const DIST = join(__dirname, '..', 'apps', 'console', 'dist');
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean; src?: string }>;

function chunkSizes(): { shell: number; areas: Record<string, number> } {
  const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const gz = (file: string) => gzipSync(readFileSync(join(DIST, file))).length;
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
    return seen;
  };
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const shellKeys = closure(entry);
  const shell = [...shellKeys].reduce((sum, k) => sum + gz(manifest[k]!.file), 0);
  const areas: Record<string, number> = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    const area = /src\/routes\/([^/]+)\/area\.tsx$/.exec(key)?.[1];
    if (!area) continue;
    // What visiting the area loads beyond the shell: its chunk and the shared chunks it imports.
    areas[area] = [...closure(key)].filter((k) => !shellKeys.has(k)).reduce((sum, k) => sum + gz(manifest[k]!.file), 0);
    void chunk;
  }
  return { shell, areas };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

async function main() {
  ensureConsoleBuilt();
  if (!existsSync(join(DIST, '.vite', 'manifest.json'))) throw new Error('no build manifest');
  const sizes = chunkSizes();
  console.log(`shell JS (gzip): ${(sizes.shell / 1024).toFixed(1)} KB`);
  for (const [area, size] of Object.entries(sizes.areas)) console.log(`  area ${area}: ${(size / 1024).toFixed(1)} KB`);

  const stack = await startCoreApi({ providers: true });
  const browser = await launchChromium();
  try {
    const owner = await paidUserWithApplication(stack, 'enterprise');
    for (let i = 1; i < 200; i++) {
      const res = await stack.client.post('/api/applications', { name: `Bench app ${i}` }, { token: owner.token });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.listening.url}/sign-in`);
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    // Interactive list: from navigation start (a full load: shell, session refresh, area chunk, API call) to
    // the rows on screen and the first row's edit button enabled.
    const listTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.goto(`${stack.listening.url}/applications`);
      await page.getByRole('button', { name: /^Edit / }).first().waitFor();
      listTimes.push(await page.evaluate(() => performance.now()));
    }
    console.log(`applications list (200 applications) interactive after: median ${median(listTimes).toFixed(0)} ms, p95 ${p95(listTimes).toFixed(0)} ms`);

    // Token arrival → paint: each chunk the page's stream reader receives is timed, and so is the first
    // animation frame after the transcript shows it.
    stack.emulator!.behaviour.reply = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    stack.emulator!.behaviour.chunkDelayMs = 25;
    await page.goto(`${stack.listening.url}/playground/${owner.app.id}`);
    await page.getByLabel('Message').waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __arrivals: number[]; __paints: number[] };
      w.__arrivals = [];
      w.__paints = [];
      const read = ReadableStreamDefaultReader.prototype.read;
      ReadableStreamDefaultReader.prototype.read = function (this: ReadableStreamDefaultReader) {
        return read.call(this).then((r: ReadableStreamReadResult<unknown>) => {
          if (!r.done && typeof r.value === 'object' && r.value && 'data' in (r.value as object)) w.__arrivals.push(performance.now());
          return r;
        });
      } as typeof read;
      new MutationObserver(() => requestAnimationFrame(() => w.__paints.push(performance.now()))).observe(document.querySelector('.ap-transcript')!, { subtree: true, characterData: true, childList: true });
    });
    const gaps: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.getByLabel('Message').fill(`Question ${i}`);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('button', { name: 'Send' }).waitFor();
      await page.waitForTimeout(300);
      const { arrivals, paints } = await page.evaluate(() => {
        const w = window as unknown as { __arrivals: number[]; __paints: number[] };
        const out = { arrivals: [...w.__arrivals], paints: [...w.__paints] };
        w.__arrivals.length = 0;
        w.__paints.length = 0;
        return out;
      });
      for (const a of arrivals) {
        const paint = paints.find((p) => p >= a);
        if (paint !== undefined) gaps.push(paint - a);
      }
    }
    console.log(`streamed token arrival → paint: median ${median(gaps).toFixed(1)} ms, p95 ${p95(gaps).toFixed(1)} ms, max ${Math.max(...gaps).toFixed(1)} ms (${gaps.length} tokens)`);
    await context.close();
  } finally {
    await browser.close();
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
