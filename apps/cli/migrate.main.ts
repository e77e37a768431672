import '../shared/runtime-check';
import { openDatabase } from '../../adapters/persistence/data-source';
import { ConfigError, loadConfig } from '../shared/config';
import { processCommand } from '../shared/process-command';
import { dataDirLockedLine, databaseFailureLine } from '../shared/startup-failure';

/**
 * `npm run migrate`: brings the database named by the environment (DATABASE_URL, or the embedded
 * PGlite in DATA_DIR) up to date. Every service also does this at start; this is for deployments
 * that migrate as a separate step. On PostgreSQL it takes the migration lock like the services,
 * so running it beside starting services is safe.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir, command: processCommand() });
  const applied = (await database.dataSource.query(`SELECT name FROM migrations ORDER BY id`)) as { name: string }[];
  process.stdout.write(`database up to date (${database.kind}): ${applied.length} migrations applied\n`);
  await database.close();
}

main().catch((error) => {
  const line =
    error instanceof ConfigError
      ? `Configuration error: ${error.message}`
      : (dataDirLockedLine(error) ?? databaseFailureLine(error, process.env.DATABASE_URL || undefined) ?? `Migration failed: ${(error as Error).message}`);
  process.stderr.write(`${line}\n`);
  process.exit(1);
});
