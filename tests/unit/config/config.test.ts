import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../apps/shared/config';

const KEY = 'a'.repeat(64);
const fresh = () => mkdtempSync(join(tmpdir(), 'config-test-'));

describe('configuration', () => {
  it('applies the defaults of the runtime contract', () => {
    const config = loadConfig({ DATA_DIR: fresh() });
    expect(config).toMatchObject({ host: '127.0.0.1', port: 3000, aiServicePort: 3001, marketplacePort: 3002, logLevel: 'info' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.cacheTtlMs).toBe(10_000);
    expect(loadConfig({ DATA_DIR: fresh(), CACHE_TTL_MS: '0' }).cacheTtlMs).toBe(0);
    expect(config.pgliteThread).toBe(true);
    expect(loadConfig({ DATA_DIR: fresh(), PGLITE_THREAD: 'off' }).pgliteThread).toBe(false);
    expect(loadConfig({ DATA_DIR: fresh(), PGLITE_THREAD: 'ON' }).pgliteThread).toBe(true);
  });

  it('generates development secrets once into DATA_DIR with mode 0600 and says which', () => {
    const dir = fresh();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.generatedSecrets.sort()).toEqual(['AI_SERVICE_TOKEN', 'ENCRYPTION_KEY', 'JWT_SECRET', 'MARKETPLACE_TOKEN']);
    expect(first.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dir, 'secrets', 'encryption_key')).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.generatedSecrets).toEqual([]);
    expect(second.encryptionKey).toBe(first.encryptionKey);
    expect(readFileSync(join(dir, 'secrets', 'jwt_secret'), 'utf8').trim()).toBe(first.jwtSecret);
  });

  it('refuses to start in production without explicit secrets', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: fresh() })).toThrow(new ConfigError('ENCRYPTION_KEY is required when NODE_ENV=production'));
  });

  it('starts in production with explicit secrets', () => {
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: fresh(), ENCRYPTION_KEY: KEY, JWT_SECRET: 'j'.repeat(40), AI_SERVICE_TOKEN: 't'.repeat(32), MARKETPLACE_TOKEN: 'm'.repeat(32) });
    expect(config.generatedSecrets).toEqual([]);
  });

  it.each([
    [{ ENCRYPTION_KEY: 'abc' }, 'ENCRYPTION_KEY must be 64 hexadecimal characters'],
    [{ PORT: 'eighty' }, 'PORT must be a port number (0-65535)'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must use postgres: or postgresql:'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL must be a URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ PROVIDER_A_BASE_URL: 'ftp://x' }, 'PROVIDER_A_BASE_URL must use http: or https:'],
    [{ CACHE_TTL_MS: '-1' }, 'CACHE_TTL_MS must be a whole number (0 or more)'],
    [{ CACHE_TTL_MS: 'ten' }, 'CACHE_TTL_MS must be a whole number (0 or more)'],
    [{ PGLITE_THREAD: 'maybe' }, 'PGLITE_THREAD must be on or off'],
    [{ WEBHOOK_DELIVERY_LEASE_MS: '10000' }, 'WEBHOOK_DELIVERY_LEASE_MS must be at least 15000'],
  ])('stops with one line naming the variable for %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: fresh(), ...env })).toThrow(new ConfigError(message));
  });

  it('never echoes a bad secret value in its message', () => {
    try {
      loadConfig({ DATA_DIR: fresh(), ENCRYPTION_KEY: 'secret-value-zzz' });
      fail('expected an error');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-value-zzz');
    }
  });

  it('reads provider keys, base URLs and admin e-mails', () => {
    const config = loadConfig({
      DATA_DIR: fresh(),
      PROVIDER_B_API_KEY: 'sk-ant-x',
      PROVIDER_C_BASE_URL: 'http://127.0.0.1:4010/',
      ADMIN_EMAILS: ' Boss@Example.com , ops@example.com',
    });
    expect(config.providerKeys).toEqual({ provider_b: 'sk-ant-x' });
    expect(config.providerBaseUrls).toEqual({ provider_c: 'http://127.0.0.1:4010' });
    expect(config.adminEmails).toEqual(['boss@example.com', 'ops@example.com']);
  });

  it('reads TRUST_PROXY as on or off (off by default) and refuses anything else', () => {
    expect(loadConfig({ DATA_DIR: fresh() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: fresh(), TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: fresh(), TRUST_PROXY: 'on' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: fresh(), TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(() => loadConfig({ DATA_DIR: fresh(), TRUST_PROXY: 'yes please' })).toThrow(new ConfigError('TRUST_PROXY must be on or off'));
  });
});
