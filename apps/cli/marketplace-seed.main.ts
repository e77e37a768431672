import { DataDirLockedError } from '../../adapters/persistence/pglite/data-dir-lock';
import { createMarketplace } from '../marketplace/marketplace.container';
import { catalogInProcess, catalogOverHttp, seedCatalog, type SeedResult } from '../marketplace/marketplace-seed';
import { ConfigError, loadConfig } from '../shared/config';
import { createInfrastructure } from '../shared/infrastructure';
import { dataDirLockedLine, databaseFailureLine } from '../shared/startup-failure';

/**
 * `npm run marketplace:seed`: loads the example plugins and the theme presets into the marketplace's catalog,
 * published and featured, so a first browse is not empty. Running it again leaves the items already there alone.
 *
 * Where it writes: the database named by the environment (DATABASE_URL, or the embedded PGlite in DATA_DIR). When a
 * running process holds that embedded database (`npm start`, `npm run start:marketplace`), opening it a second time
 * would lose data, so the seed goes through that process's marketplace API instead (the address the holder wrote into
 * the lock, MARKETPLACE_TOKEN as the core API uses it); a holder that serves no marketplace refuses the seed with one
 * line naming it.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  let infra;
  try {
    infra = await createInfrastructure(config);
  } catch (error) {
    const url = error instanceof DataDirLockedError ? error.holder?.marketplaceUrl : undefined;
    if (!url) throw error;
    const holder = (error as DataDirLockedError).holder!;
    report(await seedCatalog(catalogOverHttp(url, config.marketplaceToken)), ` through the marketplace of process ${holder.pid} (${holder.command}) at ${url}`);
    return;
  }
  try {
    const app = await createMarketplace(infra);
    const result = await seedCatalog(catalogInProcess(app.container));
    await app.stop();
    report(result, '');
  } finally {
    await infra.close();
  }
}

function report({ created, completed, present }: SeedResult, where: string): void {
  const list = (items: string[]) => (items.length ? ` (${items.join(', ')})` : '');
  const finished = completed.length ? `, ${completed.length} published that an earlier run left pending${list(completed)}` : '';
  process.stdout.write(`marketplace seeded${where}: ${created.length} added${list(created)}${finished}, ${present.length} already there\n`);
}

main().catch((error) => {
  const line =
    error instanceof ConfigError
      ? `Configuration error: ${error.message}`
      : (dataDirLockedLine(error) ?? databaseFailureLine(error, process.env.DATABASE_URL || undefined) ?? `Seeding failed: ${(error as Error).message}`);
  process.stderr.write(`${line}\n`);
  process.exit(1);
});
