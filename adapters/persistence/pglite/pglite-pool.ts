import { EventEmitter } from 'node:events';
import type { PgResult, StatementRunner } from './pglite-statements';

/**
 * A `pg.Pool` look-alike over one PGlite database, for TypeORM's postgres driver.
 *
 * PGlite has a single session, so a checked-out client holds it exclusively until released: a TypeORM
 * transaction cannot see another request's statements interleaved into it (the published
 * typeorm-pglite pool shares the session between concurrent query runners, and keeps one instance per
 * process, which is why this project carries its own). The statements themselves run wherever the
 * runner puts them: on this thread, or on the database's own worker thread (see PGliteThread).
 */
export class PGlitePool extends EventEmitter {
  private queue: Array<() => void> = [];
  private busy = false;

  constructor(private readonly runner: StatementRunner) {
    super();
  }

  connect(callback?: (err: Error | null, client?: PGliteClient, release?: (err?: unknown) => void) => void): Promise<PGliteClient> {
    return this.acquire().then((release) => {
      const client = new PGliteClient(this.runner, release);
      callback?.(null, client, () => client.release());
      return client;
    });
  }

  async query(sql: string, params?: unknown[]): Promise<PgResult> {
    const release = await this.acquire();
    try {
      return await this.runner.run(sql, params);
    } finally {
      release();
    }
  }

  async end(callback?: (err?: Error) => void): Promise<void> {
    // The database belongs to the data source factory, which closes it after TypeORM has let go.
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

export class PGliteClient extends EventEmitter {
  constructor(
    private readonly runner: StatementRunner,
    readonly release: () => void,
  ) {
    super();
  }

  query(sql: string, params?: unknown[]): Promise<PgResult> {
    return this.runner.run(sql, params);
  }
}
