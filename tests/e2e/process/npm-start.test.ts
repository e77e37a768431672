import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnService, waitUntilUp } from '../../support/spawn-service';

/** What `npm start` runs: the three services in one process on the embedded database. */
describe('npm start (apps/all)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves health on every service, keeps data across a restart and stops cleanly on SIGTERM', async () => {
    const ports = { PORT: await freePort(), AI_SERVICE_PORT: await freePort(), MARKETPLACE_PORT: await freePort() };
    const env = { DATA_DIR: dataDir, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    let service = spawnService('apps/all/main.ts', env);
    await waitUntilUp(`http://127.0.0.1:${ports.PORT}/api/health`, service);
    for (const port of Object.values(ports)) {
      const health = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
      expect(health).toMatchObject({ status: 'healthy', checks: { database: { status: 'up' } } });
    }
    expect(service.output()).toContain('generated development secrets');
    const register = await fetch(`http://127.0.0.1:${ports.PORT}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'keeper@example.com', password: 'persistent pw', displayName: 'Keeper' }),
    });
    expect(register.status).toBe(201);
    expect(await service.stop('SIGTERM')).toBe(0);

    service = spawnService('apps/all/main.ts', env);
    await waitUntilUp(`http://127.0.0.1:${ports.PORT}/api/health`, service);
    const login = await fetch(`http://127.0.0.1:${ports.PORT}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'keeper@example.com', password: 'persistent pw' }),
    });
    expect(login.status).toBe(200);
    expect(service.output()).not.toContain('generated development secrets');
    expect(await service.stop('SIGTERM')).toBe(0);
  }, 120_000);

  it('stops with one line naming a bad variable', async () => {
    const service = spawnService('apps/all/main.ts', { DATA_DIR: dataDir, ENCRYPTION_KEY: 'short' });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toBe('Configuration error: ENCRYPTION_KEY must be 64 hexadecimal characters');
  }, 60_000);

  it('stops with one line naming PLANS_FILE and the field when the plans file is bad', async () => {
    const plansFile = join(dataDir, 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ free: { name: 'Free', priceUsdPerMonth: 0, platformKeys: false, overageUsdPer1k: null, limits: { includedTokens: 0, applications: 3, messagesPerMonth: 'lots', apiKeys: 2 } } }));
    const service = spawnService('apps/all/main.ts', { DATA_DIR: dataDir, PLANS_FILE: plansFile });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toBe('Configuration error: PLANS_FILE: free.limits.messagesPerMonth must be a whole number or null for unlimited');
  }, 60_000);
});
