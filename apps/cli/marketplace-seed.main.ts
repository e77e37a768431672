import '../shared/runtime-check';
import { DataDirLock, DataDirLockedError, type LockHolder } from '../../adapters/persistence/pglite/data-dir-lock';
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
    if (!(error instanceof DataDirLockedError)) throw error;
    const holder = await marketplaceOf(config.dataDir, error);
    report(await seedCatalog(catalogOverHttp(holder.marketplaceUrl, config.marketplaceToken)), ` through the marketplace of process ${holder.pid} (${holder.command}) at ${holder.marketplaceUrl}`);
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

/** Commands that serve a marketplace once they have started. */
const SERVES_MARKETPLACE = new Set(['npm start', 'npm run start:marketplace']);

/**
 * The holder's marketplace address. A holder that serves one but is still starting (the lock is taken before the ports
 * are) gets up to 60 s to write it; any other holder refuses the seed with the error's one line.
 */
async function marketplaceOf(dataDir: string, error: DataDirLockedError): Promise<LockHolder & { marketplaceUrl: string }> {
  let holder = error.holder;
  if (holder && !holder.marketplaceUrl && SERVES_MARKETPLACE.has(holder.command)) {
    process.stderr.write(`Waiting for process ${holder.pid} (${holder.command}) to start its marketplace...\n`);
    const until = Date.now() + 60_000;
    while (holder?.pid === error.holder?.pid && !holder?.marketplaceUrl && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      holder = DataDirLock.holderOf(dataDir);
    }
  }
  if (!holder?.marketplaceUrl) throw error;
  return holder as LockHolder & { marketplaceUrl: string };
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
