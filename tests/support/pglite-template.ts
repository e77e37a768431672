import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpPGliteTemplate } from '../../adapters/persistence/data-source';
import { MIGRATIONS } from '../../adapters/persistence/migrations';

/**
 * The test run's embedded-database template: an in-memory PGlite with every migration applied, dumped to a tar file
 * once (jest's global setup) and loaded by every in-memory test database instead of running initdb and the
 * migrations again (seconds each on two cores, a few hundred times a run). The file's name holds a hash of the
 * migrations' code and PGlite's version, so a changed migration makes a new template.
 */
export async function preparePGliteTemplate(): Promise<string> {
  const pgliteVersion = JSON.parse(readFileSync(join(require.resolve('@electric-sql/pglite'), '../../package.json'), 'utf8')).version as string;
  const hash = createHash('sha256').update(pgliteVersion);
  for (const migration of MIGRATIONS) hash.update(migration.name).update(String(migration.prototype.up)).update(String(migration.prototype.down));
  const file = join(tmpdir(), `ai-platform-test-db-${hash.digest('hex').slice(0, 16)}.tar.gz`);
  if (!existsSync(file)) await dumpPGliteTemplate(file);
  return file;
}
