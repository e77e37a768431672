import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startParams } from './pglite-statements';
import type { PGliteMemorySettings } from './pglite-memory';
import { PGLITE_MEMORY_DEFAULTS } from './pglite-memory';

const run = promisify(execFile);

/**
 * Creates the embedded database in `dataDir` when it holds none yet, in a short-lived process of its own.
 * PGlite's initdb is a second PostgreSQL in WebAssembly with its own heap: run in the serving process, it
 * peaked at about 700 MB and left the process 130-160 MB larger for its whole life (memory a WebAssembly heap
 * or a finished thread once used is not given back to the system; docs/benchmarks/memory.md). A process
 * that exits gives all of it back. It runs on V8's baseline WebAssembly compiler alone (`--liftoff-only`): the
 * optimizing one doubled initdb's peak (about 1,050 MB against 540 MB) and did not finish it sooner (issue 49).
 */
export async function initializeDataDir(dataDir: string, memory: PGliteMemorySettings = PGLITE_MEMORY_DEFAULTS): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const script = [
    `const [pglite, vector, dataDir, params] = process.argv.slice(1);`,
    `const { PGlite } = require(pglite);`,
    `PGlite.create({ dataDir, extensions: { vector: require(vector).vector }, startParams: JSON.parse(params) })`,
    `  .then((db) => db.close())`,
    `  .catch((error) => { process.stderr.write(String(error && error.message || error)); process.exit(1); });`,
  ].join('\n');
  const args = [require.resolve('@electric-sql/pglite'), require.resolve('@electric-sql/pglite/vector'), dataDir, JSON.stringify(startParams(memory))];
  try {
    await run(process.execPath, ['--liftoff-only', '-e', script, ...args], { env: { PATH: process.env.PATH ?? '' }, maxBuffer: 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`The embedded database could not be created in ${dataDir}${stderr ? `: ${stderr}` : ''}`);
  }
}
