import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DataDirLock } from './pglite/data-dir-lock';
import { initializeDataDir } from './pglite/pglite-initdb';
import { PGlitePool } from './pglite/pglite-pool';
import { inThread, openPGlite, type PGliteMemorySettings, type StatementRunner } from './pglite/pglite-statements';
import { PGliteThread } from './pglite/pglite-thread';
import { PGliteUpkeep } from './pglite/pglite-upkeep';
import { withMigrationLock } from './migration-lock';
import { MIGRATIONS } from './migrations';

export interface DataSourceOptions {
  /** PostgreSQL URL; unset means embedded PGlite. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; unset means in memory (tests). */
  dataDir?: string;
  /**
   * Run the embedded PGlite on a worker thread of its own (see PGliteThread), as the platform does unless
   * PGLITE_THREAD=off: about twice the chat turns per second on two cores, for a round trip between threads
   * per statement (about 1 ms more per chat turn at one client). Unset or false: PGlite runs on the calling
   * thread.
   */
  pgliteThread?: boolean;
  /** The embedded PGlite's memory settings; unset means PGLITE_MEMORY_DEFAULTS. */
  pgliteMemory?: PGliteMemorySettings;
  /**
   * In memory only: a tar file of a data directory (`PGlite.dumpDataDir`, see dumpPGliteTemplate) the database starts
   * from instead of running initdb; its applied migrations are skipped. Tests use one made once per run.
   */
  pgliteTemplate?: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  schema?: string;
  /**
   * What this process runs (`npm start`, `npm run migrate`, ...), written into the embedded database's lock so that
   * a second opener can name it. Only for PGlite in a folder.
   */
  command?: string;
}

export interface Database {
  dataSource: DataSource;
  kind: 'postgres' | 'pglite';
  /** The lock this process holds on the embedded database's folder (PGlite in a folder only). */
  lock?: DataDirLock;
  close(): Promise<void>;
}

/**
 * Opens the database the environment names and brings its schema up to date. Schema changes come
 * from migrations only, the same ones on PostgreSQL and PGlite.
 */
export async function openDatabase(options: DataSourceOptions): Promise<Database> {
  if (options.databaseUrl) {
    const databaseUrl = options.databaseUrl;
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
    // Processes starting together (replicas, the compose file's three services) take turns: one migrates, the
    // others then find nothing left to apply.
    await withMigrationLock(databaseUrl, async (session) => {
      if (options.schema) await session.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(options.schema)}`);
      await dataSource.initialize();
      try {
        await dataSource.runMigrations({ transaction: 'each' });
      } catch (error) {
        await dataSource.destroy().catch(() => undefined);
        throw error;
      }
    });
    return { dataSource, kind: 'postgres', close: () => dataSource.destroy() };
  }

  let dataDir: string | undefined;
  let lock: DataDirLock | undefined;
  if (options.dataDir) {
    dataDir = join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
    // PGlite serves one process: a second one on the same files loses data. Refused before anything is opened.
    lock = DataDirLock.acquire(options.dataDir, options.command ?? `node ${process.argv[1] ?? ''}`.trim(), dataDir);
  }
  try {
    return await openPGliteDatabase(dataDir, options, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openPGliteDatabase(dataDir: string | undefined, options: DataSourceOptions, lock: DataDirLock | undefined): Promise<Database> {
  // A new data directory is created by a process that then ends, taking initdb's memory with it.
  if (dataDir) await initializeDataDir(dataDir, options.pgliteMemory);
  const memory = options.pgliteMemory;
  const template = dataDir ? undefined : options.pgliteTemplate;
  const db = options.pgliteThread ? await PGliteThread.open({ dataDir, memory, template }) : await inThreadDatabase(dataDir, memory, template);
  // Shared, the session lets the database thread run the next statement while this one takes in an answer.
  const pool = new PGlitePool(db, { shareSession: options.pgliteThread === true });
  const dataSource = new DataSource({
    type: 'postgres',
    // TypeORM's postgres driver only needs a `Pool` constructor from the driver module.
    driver: { Pool: function PoolFactory() { return pool; } },
    migrations: MIGRATIONS,
  });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
  // Single-user PostgreSQL has no autovacuum: this keeps the planner's statistics current.
  const upkeep = new PGliteUpkeep(dataSource);
  upkeep.start();
  return {
    dataSource,
    kind: 'pglite',
    lock,
    close: async () => {
      try {
        await upkeep.stop();
        await dataSource.destroy();
        await db.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function inThreadDatabase(
  dataDir: string | undefined,
  memory: PGliteMemorySettings | undefined,
  template?: string,
): Promise<StatementRunner & { close(): Promise<void> }> {
  const db = await openPGlite(dataDir, memory, template);
  return { ...inThread(db), close: () => db.close() };
}

/**
 * Writes a tar file of a new in-memory database with every migration applied (written to a neighbouring file, then
 * renamed, so a reader never sees half of it): the `pgliteTemplate` of later opens.
 */
export async function dumpPGliteTemplate(file: string, memory?: PGliteMemorySettings): Promise<void> {
  const db = await openPGlite(undefined, memory);
  const pool = new PGlitePool(inThread(db), { shareSession: false });
  const dataSource = new DataSource({
    type: 'postgres',
    driver: { Pool: function PoolFactory() { return pool; } },
    migrations: MIGRATIONS,
  });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.destroy();
    // A file named `.gz` is written compressed (the tests' template: 44 MB as a plain tar, 5 MB compressed).
    const tar = await db.dumpDataDir(file.endsWith('.gz') ? 'gzip' : 'none');
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await tar.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await db.close().catch(() => undefined);
  }
}

const quoteIdent = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error('schema names are letters, digits and underscores');
  return `"${name}"`;
};

/**
 * Whether `dataSource` is the embedded database, which one process at a time opens (its folder's lock; in
 * memory, its process's own): what only this process writes, it can know without reading it back.
 */
export function isEmbedded(dataSource: DataSource): boolean {
  return (dataSource.driver as unknown as { master?: unknown }).master instanceof PGlitePool;
}
