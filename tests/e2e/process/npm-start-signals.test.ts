import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, serviceOf, spawnService, waitUntilUp, type Service } from '../../support/spawn-service';

const ROOT = join(__dirname, '..', '..', '..');

/** `npm start` as a process manager (or a shell) starts it: npm itself is the process it holds. */
function npmStart(env: Record<string, string>): Service {
  return serviceOf(spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Every process below `pid` (Linux /proc), found while they run. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after its last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); // a zombie has ended
  } catch {
    return false;
  }
};

/** True when nothing accepts connections on the port. */
const portClosed = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

const occupy = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('npm start: stopping under a process manager, and the one line when it cannot start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-npm-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops cleanly on SIGTERM sent to npm: the three ports are freed and no process is left behind', async () => {
    const ports = { PORT: await freePort(), AI_SERVICE_PORT: await freePort(), MARKETPLACE_PORT: await freePort() };
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    const npm = npmStart(env);
    let below: number[] = [];
    try {
      for (const port of Object.values(ports)) await waitUntilUp(`http://127.0.0.1:${port}/api/health`, npm);
      below = descendants(npm.child.pid!);
      expect(below.length).toBeGreaterThan(0);

      // What systemd, supervisord, pm2 or `docker stop` of a shell-less image do: SIGTERM to the process they started.
      expect(await npm.stop('SIGTERM')).toBe(0);
      expect(npm.output()).toContain('"msg":"shutting down"');
      for (const port of Object.values(ports)) expect(await portClosed(port)).toBe(true);
      expect(below.filter(alive)).toEqual([]);
    } finally {
      for (const pid of below.filter(alive)) process.kill(pid, 'SIGKILL');
      await npm.stop('SIGKILL');
    }
  }, 120_000);

  it('on a busy port prints one line naming the port and the variable that moves it, and exits 1', async () => {
    const busy = await freePort();
    const blocker = await occupy(busy);
    try {
      const service = spawnService('apps/all/main.ts', {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'error',
        PORT: String(busy),
        AI_SERVICE_PORT: String(await freePort()),
        MARKETPLACE_PORT: String(await freePort()),
      });
      expect(await service.exited).toBe(1);
      expect(service.output().trim()).toBe(
        `Port ${busy} is already in use (core-api on 127.0.0.1:${busy}): stop the program using it, or set PORT to a free port.`,
      );
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('through npm start, names AI_SERVICE_PORT when the AI service port is the busy one, with no stack', async () => {
    const busy = await freePort();
    const blocker = await occupy(busy);
    try {
      const npm = npmStart({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'error',
        PORT: String(await freePort()),
        AI_SERVICE_PORT: String(busy),
        MARKETPLACE_PORT: String(await freePort()),
      });
      expect(await npm.exited).toBe(1);
      expect(npm.output()).toContain(`Port ${busy} is already in use (ai-service on 127.0.0.1:${busy}): stop the program using it, or set AI_SERVICE_PORT to a free port.`);
      expect(npm.output()).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('with a database it cannot reach, prints one line naming DATABASE_URL without its password, and exits 1', async () => {
    const closedPort = await freePort();
    const service = spawnService('apps/all/main.ts', {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DATABASE_URL: `postgres://platform:not-to-be-printed@127.0.0.1:${closedPort}/platform`,
      PORT: String(await freePort()),
      AI_SERVICE_PORT: String(await freePort()),
      MARKETPLACE_PORT: String(await freePort()),
    });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toMatch(
      new RegExp(`^Cannot open the database of DATABASE_URL \\(127\\.0\\.0\\.1:${closedPort}/platform\\): .*ECONNREFUSED.*\\. Check DATABASE_URL and that PostgreSQL is running\\.$`),
    );
    expect(service.output()).not.toContain('not-to-be-printed');
  }, 60_000);
});
