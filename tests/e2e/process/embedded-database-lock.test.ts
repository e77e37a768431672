import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock } from '../../../adapters/persistence/pglite/data-dir-lock';
import { freePort, spawnService, waitUntilUp, type Service } from '../../support/spawn-service';
import { waitFor } from '../../support/wait-for';

/** Every file under `dir` with a digest of its bytes: equal snapshots mean nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files[name] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return files;
}

async function ports(): Promise<{ PORT: string; AI_SERVICE_PORT: string; MARKETPLACE_PORT: string }> {
  return { PORT: String(await freePort()), AI_SERVICE_PORT: String(await freePort()), MARKETPLACE_PORT: String(await freePort()) };
}

/** Runs a command-line entry point to its end: exit code and output. */
async function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const service = spawnService(entry, env);
  const code = await service.exited;
  return { code, output: service.output().trim() };
}

const holderOf = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'pglite.lock'), 'utf8')) as { pid: number; command: string; marketplaceUrl?: string };

/** The embedded PGlite serves one process: the folder is locked by the process that opens it. */
describe('the embedded database lock', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-lock-'));
    dirs.push(dir);
    return dir;
  };
  const running: Service[] = [];
  afterAll(async () => {
    for (const service of running) await service.stop('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses every second opener with one line naming the holder, and changes nothing', async () => {
    const dataDir = tempDir();
    expect((await run('apps/cli/migrate.main.ts', { DATA_DIR: dataDir })).code).toBe(0);
    const lock = DataDirLock.acquire(dataDir, 'the test holder', join(dataDir, 'pglite'));
    try {
      const before = snapshot(dataDir);
      const line = `The embedded database in ${join(dataDir, 'pglite')} is in use by process ${process.pid} (the test holder, since `;
      const key = 'ab'.repeat(32);
      const openers: Array<[string, Record<string, string>]> = [
        ['apps/all/main.ts', { DATA_DIR: dataDir, ...(await ports()) }],
        ['apps/cli/migrate.main.ts', { DATA_DIR: dataDir }],
        ['apps/cli/rotate-keys.main.ts', { DATA_DIR: dataDir, NEW_ENCRYPTION_KEY: key }],
        // The holder serves no marketplace, so the seed has no API to go through either.
        ['apps/cli/marketplace-seed.main.ts', { DATA_DIR: dataDir }],
      ];
      for (const [entry, env] of openers) {
        const { code, output } = await run(entry, env);
        expect({ entry, code, lines: output.split('\n').length }).toEqual({ entry, code: 1, lines: 1 });
        expect(output).toContain(line);
        expect(output).toContain(`UTC): stop it first (Ctrl-C where it runs, or kill ${process.pid}), or set DATA_DIR to another folder (nothing was changed).`);
      }
      expect(snapshot(dataDir)).toEqual(before);
    } finally {
      lock.release();
    }
    expect((await run('apps/cli/migrate.main.ts', { DATA_DIR: dataDir })).output).toMatch(/^database up to date \(pglite\)/);
  }, 120_000);

  it('seeds the running npm start through its marketplace, refuses a second npm start, and takes over after a SIGKILL', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, ...(await ports()) };
    const api = `http://127.0.0.1:${env.PORT}`;
    let start = spawnService('apps/all/main.ts', env);
    running.push(start);
    // The seed run as soon as npm start holds the database, while it may still be starting: it waits for the marketplace.
    await waitFor(() => existsSync(join(dataDir, 'pglite.lock')) && readFileSync(join(dataDir, 'pglite.lock'), 'utf8').includes(`"pid":${start.child.pid}`), 60_000);
    const seeded = await run('apps/cli/marketplace-seed.main.ts', { DATA_DIR: dataDir });
    expect(seeded).toEqual({ code: 0, output: expect.stringContaining(`marketplace seeded through the marketplace of process ${start.child.pid} (npm start) at http://127.0.0.1:${env.MARKETPLACE_PORT}: 6 added`) });
    await waitUntilUp(`${api}/api/health`, start);
    expect(holderOf(dataDir)).toEqual(expect.objectContaining({ pid: start.child.pid, command: 'npm start', marketplaceUrl: `http://127.0.0.1:${env.MARKETPLACE_PORT}` }));

    const second = await run('apps/all/main.ts', { DATA_DIR: dataDir, ...(await ports()) });
    expect(second.code).toBe(1);
    expect(second.output).toMatch(new RegExp(`^The embedded database in \\S+ is in use by process ${start.child.pid} \\(npm start, since [0-9:]+ UTC\\): stop it first`));
    const again = await run('apps/cli/marketplace-seed.main.ts', { DATA_DIR: dataDir });
    expect(again.output).toMatch(/: 0 added, 6 already there$/);

    const browse = async () => (await (await fetch(`${api}/api/marketplace/browse`)).json()) as { data: Array<{ id: string; name: string }>; total: number };
    const plugins = await browse();
    expect(plugins.data.map((p) => p.name).sort()).toEqual(['conversation-counter', 'profanity-filter']);
    for (const plugin of plugins.data) {
      const versions = (await (await fetch(`${api}/api/marketplace/plugins/${plugin.id}/versions`)).json()) as Array<{ version: string }>;
      expect(versions.map((v) => v.version)).toEqual(['1.0.0']);
    }

    // A process killed outright leaves the lock file behind with its pid; the next start takes it over at once.
    start.child.kill('SIGKILL');
    await start.exited;
    expect(holderOf(dataDir).pid).toBe(start.child.pid);
    start = spawnService('apps/all/main.ts', env);
    running.push(start);
    await waitUntilUp(`${api}/api/health`, start);
    expect(holderOf(dataDir).pid).toBe(start.child.pid);
    expect((await browse()).total).toBe(2);
    const stopped = await start.stop('SIGTERM');
    expect({ stopped, lock: readFileSync(join(dataDir, 'pglite.lock'), 'utf8'), pid: start.child.pid, log: start.output().slice(-3000) }).toEqual({ stopped: 0, lock: '', pid: start.child.pid, log: expect.any(String) });
  }, 180_000);
});
