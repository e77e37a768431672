import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

describe('the console’s API types', () => {
  // In a child process: openapi-typescript's dependencies are ES modules Jest's CommonJS runtime cannot load.
  it('match the OpenAPI document the core API serves (run `npm run console:api-types` after changing it)', () => {
    const run = spawnSync(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--swc', join(ROOT, 'apps/cli/console-api-types.main.ts'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('is current');
  });
});
