import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../apps/shared/config';

describe('MARKETPLACE_URL', () => {
  const dirs: string[] = [];
  const load = (env: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'config-test-'));
    dirs.push(dir);
    return loadConfig({ DATA_DIR: dir, ...env });
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('tells "set empty" (no marketplace, npm start keeps it so) from "not set" (npm start points it at its own service)', () => {
    expect(load({}).marketplaceUrl).toBeUndefined();
    expect(load({ MARKETPLACE_URL: '' }).marketplaceUrl).toBe('');
    expect(load({ MARKETPLACE_URL: 'http://127.0.0.1:3002' }).marketplaceUrl).toBe('http://127.0.0.1:3002');
  });
});
