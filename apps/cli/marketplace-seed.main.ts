import '../shared/runtime-check';
import { createMarketplace } from '../marketplace/marketplace.container';
import { seedMarketplace } from '../marketplace/marketplace-seed';
import { ConfigError, loadConfig } from '../shared/config';
import { createInfrastructure } from '../shared/infrastructure';
import { databaseFailureLine } from '../shared/startup-failure';

/**
 * `npm run marketplace:seed`: loads the example plugins and the theme presets into the marketplace's catalog in the
 * database named by the environment (DATABASE_URL, or the embedded PGlite in DATA_DIR), published and featured, so
 * a first browse is not empty. Running it again leaves the items already there alone.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const infra = await createInfrastructure(config);
  try {
    const app = await createMarketplace(infra);
    const { created, present } = await seedMarketplace(app.container);
    await app.stop();
    process.stdout.write(`marketplace seeded: ${created.length} added${created.length ? ` (${created.join(', ')})` : ''}, ${present.length} already there\n`);
  } finally {
    await infra.close();
  }
}

main().catch((error) => {
  const line =
    error instanceof ConfigError
      ? `Configuration error: ${error.message}`
      : (databaseFailureLine(error, process.env.DATABASE_URL || undefined) ?? `Seeding failed: ${(error as Error).message}`);
  process.stderr.write(`${line}\n`);
  process.exit(1);
});
