import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Pool as PgPool } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError } from '../../core/shared/errors';
import type { OwnerLimit } from '../../core/shared/owner-limit';

/** Anything that runs SQL: the data source or a transaction's manager. */
export type Sql = Pick<DataSource | EntityManager, 'query'>;

interface DriverPool {
  query(sql: string | { name: string; text: string; values: unknown[] }, params?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** node-postgres pools (not the PGlite one) take named statements, which each connection parses and plans once. */
const namedStatementPools = new WeakMap<object, boolean>();
const statementNames = new Map<string, string>();

function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    if (statementNames.size < 10_000) statementNames.set(sql, name);
  }
  return name;
}

function run(pool: DriverPool, sql: string, params: unknown[]) {
  let named = namedStatementPools.get(pool);
  if (named === undefined) {
    named = pool instanceof PgPool;
    namedStatementPools.set(pool, named);
  }
  return named ? pool.query({ name: statementName(sql), text: sql, values: params }) : pool.query(sql, params);
}

/**
 * Outside a transaction, statements go straight to the driver's pool (node-postgres, or the PGlite
 * pool): TypeORM's per-statement query runner, events and logging cost more than a simple indexed
 * query itself. Inside a transaction the manager's own connection must be used.
 */
function poolOf(db: Sql): DriverPool | undefined {
  if (!(db instanceof DataSource)) return undefined;
  if (ambientOf(db)) return undefined;
  return (db.driver as unknown as { master?: DriverPool }).master;
}

/**
 * The unit of work the current call runs in (`SqlUnitOfWork`): statements given the data source inside
 * it run on its transaction's manager, so repositories join it without knowing.
 */
export interface AmbientTransaction {
  dataSource: DataSource;
  manager: EntityManager;
  afterCommit: Array<() => void>;
}

export const ambientTransaction = new AsyncLocalStorage<AmbientTransaction>();

function ambientOf(db: Sql): EntityManager | undefined {
  const ambient = ambientTransaction.getStore();
  return ambient && ambient.dataSource === db ? ambient.manager : undefined;
}

/** The transaction's manager when `db` is the data source of the current unit of work, else `db`. */
export const joined = (db: Sql): Sql => ambientOf(db) ?? db;

/** Rows of a SELECT, or of INSERT / UPDATE / DELETE … RETURNING. */
export async function rows<T>(db: Sql, sql: string, params: unknown[] = []): Promise<T[]> {
  db = joined(db);
  const pool = poolOf(db);
  if (pool) return (await run(pool, sql, params)).rows as T[];
  const result = (await db.query(sql, params)) as unknown[];
  // TypeORM answers UPDATE and DELETE with `[rows, affectedCount]`; rows themselves are never arrays.
  if (result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}

export async function one<T>(db: Sql, sql: string, params: unknown[] = []): Promise<T | null> {
  return (await rows<T>(db, sql, params))[0] ?? null;
}

/** Affected-row count of an UPDATE or DELETE (TypeORM answers `[rows, count]` for those). */
export async function affected(db: Sql, sql: string, params: unknown[] = []): Promise<number> {
  db = joined(db);
  const pool = poolOf(db);
  if (pool) return (await run(pool, sql, params)).rowCount ?? 0;
  const result = (await db.query(sql, params)) as unknown;
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/**
 * Inserts within an owner's limit (a plan limit): in one transaction that first takes a per-owner
 * advisory lock for `scope`, then runs `countSql` (`$1` = the owner, then `countParams`, answering `n`) and, below
 * `limit.max`, `insert`; at or past it nothing is stored and `limit.exceeded()` is thrown. Concurrent
 * creations of one owner take the lock in turn and each counts after the previous one committed (the
 * lock is released only at commit), so the limit holds exactly, on PostgreSQL and PGlite alike. Without
 * a limit, `insert` runs on its own. A write that brings a resource to the owner (a move) counts the same
 * way under the same lock, so it cannot pass the limit with a concurrent creation either.
 */
export async function insertWithinLimit<T>(
  db: DataSource,
  limit: OwnerLimit | null | undefined,
  owner: { scope: string; ownerId: string; countSql: string; countParams?: unknown[] },
  insert: (sql: Sql) => Promise<T>,
): Promise<T> {
  if (!limit) return insert(joined(db));
  const inUnit = ambientOf(db);
  const run = <R>(work: (tx: EntityManager) => Promise<R>): Promise<R> => (inUnit ? work(inUnit) : db.transaction(work));
  return run(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${owner.scope}:${owner.ownerId}`]);
    const held = (await one<{ n: number }>(tx, owner.countSql, [owner.ownerId, ...(owner.countParams ?? [])]))?.n ?? 0;
    if (held >= limit.max) throw limit.exceeded();
    return insert(tx);
  });
}

const UNIQUE_VIOLATION = '23505';

/** Runs a write, turning a unique-constraint violation into the given ConflictError. */
export async function uniquely<T>(write: () => Promise<T>, conflictMessage: (constraint: string) => string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const driverError = (error as { driverError?: { code?: string; constraint?: string }; code?: string }).driverError ?? (error as { code?: string; constraint?: string });
    if (driverError?.code === UNIQUE_VIOLATION) {
      throw new ConflictError(conflictMessage(driverError.constraint ?? ''));
    }
    throw error;
  }
}
