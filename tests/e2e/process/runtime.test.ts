import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort, serviceOf, waitUntilUp } from '../../support/spawn-service';

const ROOT = join(__dirname, '..', '..', '..');
const INSTALLED_NODE = realpathSync(join(ROOT, 'node_modules', '.bin', 'node'));

/** PATH as a shell outside npm has it: without any node_modules/.bin, so `node` is the system's (Node.js 20 here). */
const SHELL_PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules/.bin') && !dir.includes('node-gyp-bin')).join(delimiter);
const shellEnv = (extra: Record<string, string> = {}) => {
  const env: Record<string, string | undefined> = { ...process.env, PATH: SHELL_PATH, ...extra };
  // What npm sets for the scripts it runs (this suite is one): a shell typing `npm start` has none of it.
  for (const key of Object.keys(env)) if (key.startsWith('npm_') || key === 'NODE_OPTIONS' || key === 'INIT_CWD') delete env[key];
  return env;
};

/** The system's `node` on that PATH, when there is one: its path and version. */
function systemNode(): { path: string; version: string } | undefined {
  try {
    const path = execFileSync('sh', ['-c', 'command -v node'], { env: shellEnv(), encoding: 'utf8' }).trim();
    return path ? { path, version: execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim() } : undefined;
  } catch {
    return undefined;
  }
}

/** The executables of every process below `pid`, read from Linux /proc while they run. */
function descendantExecutables(pid: number): string[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: string[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      try {
        found.push(readlinkSync(`/proc/${child}/exe`));
      } catch {
        // gone meanwhile
      }
      walk(child);
    }
  };
  walk(pid);
  return found;
}

describe('the Node.js runtime npm installs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-runtime-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs `npm start` typed in a shell whose own node is another one, and the start log names it', async () => {
    const ports = { PORT: await freePort(), AI_SERVICE_PORT: await freePort(), MARKETPLACE_PORT: await freePort() };
    const env = shellEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) });
    const service = serviceOf(spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    try {
      await waitUntilUp(`http://127.0.0.1:${ports.PORT}/api/health`, service, 90_000);
      // npm → sh → exec ts-node, whose `#!/usr/bin/env node` finds node_modules/.bin/node first on npm's PATH.
      expect(descendantExecutables(service.child.pid!)).toContain(INSTALLED_NODE);
      const starting = service
        .output()
        .split('\n')
        .map((line) => (line.startsWith('{') ? (JSON.parse(line) as { msg?: string; runtime?: { node: string; noNodeSnapshot: boolean } }) : {}))
        .find((entry) => entry.msg === 'starting');
      const installedVersion = execFileSync(INSTALLED_NODE, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
      expect(starting?.runtime).toMatchObject({ node: installedVersion, noNodeSnapshot: true });
      expect(Number.parseInt(installedVersion.slice(1), 10)).toBeGreaterThanOrEqual(24);
    } finally {
      await service.stop('SIGTERM');
    }
  }, 120_000);

  const older = systemNode();
  const olderMajor = older ? Number.parseInt(older.version, 10) : Infinity;
  // On a machine whose system Node.js is older than 24 (the machines this project is built on have 20).
  (olderMajor < 24 ? it : it.skip)(`refuses to start on the system's older Node.js (${older?.version ?? 'none'}) with one line and the fix`, async () => {
    const service = serviceOf(
      spawn(older!.path, [join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--swc', join(ROOT, 'apps', 'all', 'main.ts')], {
        cwd: ROOT,
        env: shellEnv({ DATA_DIR: dataDir }),
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toBe(
      `Node.js ${older!.version} runs this process, but the platform needs Node.js 24 or later: run \`npm install\` in the project folder ` +
        '(it installs Node.js 24 into node_modules/.bin) and start through npm (`npm start`, `npm test`, `npx …`), or put Node.js 24 first on PATH.',
    );
  }, 60_000);
});
