import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Container } from 'inversify';
import { adapterOverrides, type PlatformAdapters } from '../../../apps/platform/adapters';
import { platformConfig, toPlatformConfig } from '../../../apps/platform/settings';
import { ConfigError } from '../../../apps/shared/config';
import { TOKENS } from '../../../apps/shared/tokens';

describe('the configuration of an embedded platform', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const secrets = { ENCRYPTION_KEY: 'ab'.repeat(32), JWT_SECRET: 'j'.repeat(32), AI_SERVICE_TOKEN: 't'.repeat(16), MARKETPLACE_TOKEN: 'm'.repeat(16) };

  it('validates settings given as values with the apps\' rules, and reads nothing from the environment', () => {
    process.env.PORT = '4999';
    try {
      const config = platformConfig({ ...secrets, DATA_DIR: dataDir, PROVIDER_A_BASE_URL: 'http://127.0.0.1:4010/v1' });
      expect(config).toMatchObject({ port: 3000, dataDir, providerBaseUrls: { provider_a: 'http://127.0.0.1:4010/v1' } });
      expect(toPlatformConfig(config)).toBe(config);
    } finally {
      delete process.env.PORT;
    }
  });

  it.each([
    [{ ENCRYPTION_KEY: 'short' }, /ENCRYPTION_KEY must be 64 hexadecimal characters/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ PORT: 5 as unknown as string }, /PORT must be a string/],
    [{ DATA_DIR: '' }, /DATA_DIR is empty/],
  ])('refuses %j with a ConfigError naming the setting', (bad, message) => {
    expect(() => platformConfig({ ...secrets, DATA_DIR: dataDir, ...bad })).toThrow(ConfigError);
    expect(() => platformConfig({ ...secrets, DATA_DIR: dataDir, ...bad })).toThrow(message);
  });

  it('binds a brought adapter in place of the configured one, and refuses an unknown port', () => {
    const container = new Container();
    container.bind(TOKENS.Mailer).toConstantValue({ send: async () => {} });
    const mine = { send: async () => {} };
    adapterOverrides({ mailer: mine }).bind(container);
    expect(container.get(TOKENS.Mailer)).toBe(mine);
    expect(() => adapterOverrides({ vectorStore: {} } as unknown as PlatformAdapters).bind(new Container())).toThrow(/Unknown adapter "vectorStore"/);
  });
});
