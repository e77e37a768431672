// `npm start` runs this first: builds the console when its build is missing or older than its sources
// (a fingerprint of the sources and the lockfile is kept beside the build), and does nothing otherwise.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const consoleDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(consoleDir, '..', '..');
const dist = join(consoleDir, 'dist');
const stampFile = join(dist, '.build-stamp');

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}

export function sourceFingerprint() {
  const hash = createHash('sha256');
  const inputs = [join(consoleDir, 'index.html'), join(consoleDir, 'vite.config.mts'), join(root, 'package-lock.json'), ...files(join(consoleDir, 'src')), ...(existsSync(join(consoleDir, 'public')) ? files(join(consoleDir, 'public')) : [])];
  for (const file of inputs) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export async function ensureConsoleBuilt({ force = false, log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const fingerprint = sourceFingerprint();
  const current = existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === fingerprint;
  if (current && !force) return false;
  let vite;
  try {
    vite = await import('vite');
  } catch {
    if (existsSync(join(dist, 'index.html'))) {
      log('console: build tools not installed (production install); serving the existing build');
      return false;
    }
    throw new Error('The console is not built and Vite is not installed: run `npm install` (with dev dependencies), then `npm run build:console`.');
  }
  log(existsSync(stampFile) ? 'console: sources changed, rebuilding…' : 'console: building (first start)…');
  // Always React's production build, whatever NODE_ENV the caller runs under (Jest sets `test`).
  process.env.NODE_ENV = 'production';
  await vite.build({ configFile: join(consoleDir, 'vite.config.mts'), mode: 'production', logLevel: 'warn' });
  writeFileSync(stampFile, `${fingerprint}\n`);
  log('console: built into apps/console/dist');
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureConsoleBuilt({ force: process.argv.includes('--force') }).catch((error) => {
    process.stderr.write(`Could not build the console: ${error.message}\n`);
    process.exit(1);
  });
}
