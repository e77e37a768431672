import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A `pg.Pool` look-alike over one PGlite instance, for TypeORM's postgres driver.
 *
 * PGlite has a single session, so a checked-out client holds it exclusively until released: a TypeORM
 * transaction cannot see another request's statements interleaved into it (the published
 * typeorm-pglite pool shares the session between concurrent query runners, and keeps one instance per
 * process, which is why this project carries its own).
 */
export class PGlitePool extends EventEmitter {
  private queue: Array<() => void> = [];
  private busy = false;

  constructor(private readonly db: PGlite) {
    super();
  }

  connect(callback?: (err: Error | null, client?: PGliteClient, release?: (err?: unknown) => void) => void): Promise<PGliteClient> {
    return this.acquire().then((release) => {
      const client = new PGliteClient(this.db, release);
      callback?.(null, client, () => client.release());
      return client;
    });
  }

  async query(sql: string, params?: unknown[]): Promise<PgResult> {
    const release = await this.acquire();
    try {
      return await runQuery(this.db, sql, params);
    } finally {
      release();
    }
  }

  async end(callback?: (err?: Error) => void): Promise<void> {
    // The instance belongs to the data source factory, which closes it after TypeORM has let go.
    callback?.();
  }

  private acquire(): Promise<() => void> {
    return new Promise((resolveAcquire) => {
      const grant = () => {
        this.busy = true;
        let released = false;
        resolveAcquire(() => {
          if (released) return;
          released = true;
          const next = this.queue.shift();
          if (next) next();
          else this.busy = false;
        });
      };
      if (this.busy) this.queue.push(grant);
      else grant();
    });
  }
}

export interface PgResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: { name: string; dataTypeID: number }[];
}

export class PGliteClient extends EventEmitter {
  constructor(
    private readonly db: PGlite,
    readonly release: () => void,
  ) {
    super();
  }

  query(sql: string, params?: unknown[]): Promise<PgResult> {
    return runQuery(this.db, sql, params);
  }
}

async function runQuery(db: PGlite, sql: string, params?: unknown[]): Promise<PgResult> {
  if (params && params.length > 0) {
    const result = await db.query(sql, params.map(toParam));
    return shape(sql, result.rows, result.affectedRows, result.fields);
  }
  // Parameterless statements may hold several commands (migrations); the last result is TypeORM's.
  const results = await db.exec(sql);
  const last = results[results.length - 1];
  return shape(sql, last?.rows ?? [], last?.affectedRows, last?.fields ?? []);
}

function shape(sql: string, rows: unknown[], affected: number | undefined, fields: readonly { name: string; dataTypeID: number }[]): PgResult {
  const command = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
  return { rows, rowCount: affected ?? rows.length, command, fields: [...fields] };
}

/** TypeORM hands booleans and dates as JS values; PGlite wants them serialised like node-postgres does. */
function toParam(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value;
}
