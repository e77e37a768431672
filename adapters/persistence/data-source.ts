import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PGlitePool } from './pglite/pglite-pool';
import { PGliteThread } from './pglite/pglite-thread';
import { MIGRATIONS } from './migrations';

export interface DataSourceOptions {
  /** PostgreSQL URL; unset means embedded PGlite. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; unset means in memory (tests). */
  dataDir?: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  schema?: string;
}

export interface Database {
  dataSource: DataSource;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/**
 * Opens the database the environment names and brings its schema up to date. Schema changes come
 * from migrations only, the same ones on PostgreSQL and PGlite.
 */
export async function openDatabase(options: DataSourceOptions): Promise<Database> {
  if (options.databaseUrl) {
    if (options.schema) await ensureSchema(options.databaseUrl, options.schema);
    const dataSource = new DataSource({
      type: 'postgres',
      url: options.databaseUrl,
      schema: options.schema,
      migrations: MIGRATIONS,
      migrationsRun: false,
      extra: {
        max: 10,
        ...(options.schema ? { options: `-c search_path=${quoteIdent(options.schema)},public` } : {}),
      },
    });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    return { dataSource, kind: 'postgres', close: () => dataSource.destroy() };
  }

  let dataDir: string | undefined;
  if (options.dataDir) {
    dataDir = join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  // The database runs on a worker thread of its own, so its work lands on another core.
  const db = await PGliteThread.open({ dataDir });
  const pool = new PGlitePool(db);
  const dataSource = new DataSource({
    type: 'postgres',
    // TypeORM's postgres driver only needs a `Pool` constructor from the driver module.
    driver: { Pool: function PoolFactory() { return pool; } },
    migrations: MIGRATIONS,
  });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return {
    dataSource,
    kind: 'pglite',
    close: async () => {
      await dataSource.destroy();
      await db.close();
    },
  };
}

async function ensureSchema(databaseUrl: string, schema: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error('schema names are letters, digits and underscores');
  return `"${name}"`;
};
