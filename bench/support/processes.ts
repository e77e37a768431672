import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Runs a bench server in its own process (so the load generator does not share its event loop) and
 * resolves with what it reports once listening.
 */
export function startServerProcess<T>(script: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; info: T }> {
  const child = fork(join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'), ['--swc', join(ROOT, 'bench', script)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server process there when it exits.
    execArgv: process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ child, info: info as T }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

export function stopAll(children: ChildProcess[]): void {
  for (const c of children) c.kill('SIGTERM');
}
