// `npm start` asks this for the V8 flags of the serving process: on a small machine (a memory limit under 2 GiB,
// the memory cgroup's limit or the machine's memory, whichever is lower, as Node.js's own heap sizing reads it),
// `--liftoff-only`. V8's optimizing WebAssembly compiler, working on the embedded PostgreSQL's hottest functions,
// takes 400-600 MB for a moment after every start (the process peaked at 750-930 MB on Node 24): a 1 GB server is
// killed for it. On Liftoff alone the start peaks near 320 MB, at the price of the database's heavy work (index
// builds, large ingestions) taking 40-85 % longer. V8 takes the flag on its command line only (not NODE_OPTIONS,
// not once running). PLATFORM_WASM_TIERS=optimizing or =baseline overrides the choice (docs/benchmarks/memory.md).
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export const SMALL_MACHINE_BYTES = 2 * 1024 ** 3;

/** The memory this process may use: the cgroup's limit (v2, then v1) when lower than the machine's memory. */
export function memoryLimitBytes() {
  let limit = totalmem();
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes', ...ownCgroupFiles()]) {
    try {
      const value = readFileSync(file, 'utf8').trim();
      if (/^\d+$/.test(value)) limit = Math.min(limit, Number(value));
    } catch {
      // no such controller here
    }
  }
  return limit;
}

/** The limit files of the cgroup this process is in (a child group's limit is not visible at the root). */
function ownCgroupFiles() {
  try {
    return readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .flatMap((line) => {
        const [, controllers, path] = line.split(':');
        if (!path || path === '/') return [];
        if (controllers === '') return [`/sys/fs/cgroup${path}/memory.max`];
        if (controllers?.split(',').includes('memory')) return [`/sys/fs/cgroup/memory${path}/memory.limit_in_bytes`];
        return [];
      });
  } catch {
    return [];
  }
}

export function nodeFlags(env = process.env) {
  const tiers = env.PLATFORM_WASM_TIERS;
  if (tiers === 'baseline') return ['--liftoff-only'];
  if (tiers === 'optimizing') return [];
  return memoryLimitBytes() < SMALL_MACHINE_BYTES ? ['--liftoff-only'] : [];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.stdout.write(nodeFlags().join(' '));
