// `npm start` runs this first (after the console's): compiles the server's TypeScript (core, adapters, apps, the
// console excepted) to JavaScript in dist/start/, file by file, only the files changed since their last compile,
// with SWC as ts-node --swc would. The server then starts from that JavaScript: no compiler in the serving
// process (ts-node kept 80-100 MB of compiled sources resident; docs/benchmarks/memory.md, issue 49).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const START_DIR = join(root, 'dist', 'start');
const SOURCE_DIRS = ['core', 'adapters', 'apps'];
const SKIP = new Set([join(root, 'apps', 'console'), join(root, 'node_modules')]);
// Bumped when the options below change, so that every file is compiled again.
const OPTIONS_VERSION = '1';

function sources(dir) {
  if (!existsSync(dir) || SKIP.has(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The options ts-node --swc derives from tsconfig.json (target ES2022, CommonJS, esModuleInterop, strict). */
function swcOptions(filename) {
  return {
    filename,
    swcrc: false,
    sourceMaps: true,
    sourceFileName: relative(dirname(join(START_DIR, relative(root, filename))), filename),
    module: { type: 'commonjs', noInterop: false, strictMode: true, ignoreDynamic: true },
    jsc: {
      parser: { syntax: 'typescript', tsx: false, decorators: false, dynamicImport: true },
      target: 'es2022',
      keepClassNames: true,
      transform: { useDefineForClassFields: true },
    },
  };
}

export function ensureServerBuilt({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const stampFile = join(START_DIR, '.options');
  const fresh = !existsSync(stampFile) || readFileSync(stampFile, 'utf8').trim() !== OPTIONS_VERSION;
  if (fresh) rmSync(START_DIR, { recursive: true, force: true });
  const all = SOURCE_DIRS.flatMap((dir) => sources(join(root, dir)));
  const expected = new Set();
  const stale = [];
  for (const file of all) {
    const out = join(START_DIR, relative(root, file)).replace(/\.ts$/, '.js');
    expected.add(out);
    if (!existsSync(out) || statSync(out).mtimeMs < statSync(file).mtimeMs) stale.push([file, out]);
  }
  if (stale.length > 0) {
    let swc;
    try {
      swc = createRequire(import.meta.url)('@swc/core');
    } catch {
      if (existsSync(join(START_DIR, 'apps', 'all', 'main.js'))) {
        log('server: the compiler is not installed (production install); starting the existing build');
        return 0;
      }
      throw new Error('The server is not compiled and @swc/core is not installed: run `npm install` (with dev dependencies).');
    }
    log(fresh ? `server: compiling ${stale.length} files into dist/start…` : `server: compiling ${stale.length} changed files…`);
    for (const [file, out] of stale) {
      const { code, map } = swc.transformSync(readFileSync(file, 'utf8'), swcOptions(file));
      mkdirSync(dirname(out), { recursive: true });
      // Written aside, then renamed into place: another start compiling at the same moment (two test files, say)
      // never loads a file half written.
      const temporary = `${out}.${process.pid}.tmp`;
      writeFileSync(`${temporary}.map`, map);
      renameSync(`${temporary}.map`, `${out}.map`);
      writeFileSync(temporary, `${code}\n//# sourceMappingURL=${out.slice(dirname(out).length + 1)}.map\n`);
      renameSync(temporary, out);
    }
  }
  // A source removed or renamed takes its compiled file with it.
  for (const out of compiled(START_DIR)) if (!expected.has(out)) rmSync(out, { force: true }), rmSync(`${out}.map`, { force: true });
  mkdirSync(START_DIR, { recursive: true });
  writeFileSync(stampFile, `${OPTIONS_VERSION}\n`);
  return stale.length;
}

function compiled(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return compiled(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    ensureServerBuilt();
  } catch (error) {
    process.stderr.write(`Could not compile the server: ${error.message}\n`);
    process.exit(1);
  }
}
