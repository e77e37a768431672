import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Service {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code when the process ends by itself. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const built = new Set<string>();
/**
 * Runs one of the build scripts `npm start` runs first (`apps/<app>/scripts/ensure-built.mjs`: they rebuild only what
 * changed, and `npm test` has run them before Jest, so this is a check of the files' times), once per test file.
 */
export function ensureBuilt(app: 'all' | 'console'): void {
  if (built.has(app)) return;
  execFileSync(process.execPath, [join(ROOT, 'apps', app, 'scripts', 'ensure-built.mjs')], { stdio: 'pipe', timeout: 180_000 });
  built.add(app);
}

/**
 * Runs an entry point (e.g. apps/all/main.ts) as its own process, as `npm start` does: from its compiled JavaScript
 * (dist/start/), with no compiler in the process (starting through ts-node took several seconds more on every start).
 */
export function spawnService(entry: string, env: Record<string, string>): Service {
  ensureBuilt('all');
  return serviceOf(
    spawn(process.execPath, [join(ROOT, 'dist', 'start', entry.replace(/\.ts$/, '.js'))], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** A spawned process (stdout and stderr piped) as a Service: its output so far, its exit, a stop by signal. */
export function serviceOf(child: ChildProcess): Service {
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Waits until `url` answers 200 (the service is up) or the process dies. */
export async function waitUntilUp(url: string, service: Service, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (service.child.exitCode !== null) throw new Error(`service exited early:\n${service.output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`service did not come up:\n${service.output()}`);
}
