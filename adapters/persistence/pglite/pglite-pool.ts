import { EventEmitter } from 'node:events';
import type { PgResult, StatementRunner } from './pglite-statements';

/**
 * A `pg.Pool` look-alike over one PGlite database, for TypeORM's postgres driver.
 *
 * PGlite has a single session. When the database runs on a thread of its own (`shareSession`), every
 * client shares it: statements outside a transaction go to the runner as soon as they are asked for, and
 * the runner runs them one after another in the order given, so the database thread starts the next
 * statement while this thread is still busy with the answer to the last. Otherwise a client holds the
 * session from its first statement until it is released, as a pooled connection would (on this one
 * thread, sharing gains nothing and measured a quarter slower in the chat bench). Either way a transaction
 * is the session's alone: from the client's `BEGIN` (or `START TRANSACTION`) to its `COMMIT` or
 * `ROLLBACK`, other clients' statements wait here, so none is interleaved into it, and go in order once it
 * ends. A client released inside its transaction (a broken caller) has it rolled back.
 * (The published typeorm-pglite pool interleaves concurrent transactions in the one session, and keeps
 * one instance per process, which is why this project carries its own.)
 */
export class PGlitePool extends EventEmitter {
  /** The client that holds the session (its open transaction, or its turn when not shared), if any. */
  private owner: PGliteClient | null = null;
  /** Whether the owner has a transaction open. */
  private inTransaction = false;
  /** Statements of other clients that arrived while the session was held, in arrival order. */
  private waiting: Array<() => void> = [];
  private readonly shareSession: boolean;

  constructor(
    private readonly runner: StatementRunner,
    options: { shareSession?: boolean } = {},
  ) {
    super();
    this.shareSession = options.shareSession ?? false;
  }

  connect(callback?: (err: Error | null, client?: PGliteClient, release?: (err?: unknown) => void) => void): Promise<PGliteClient> {
    const client = new PGliteClient(this);
    callback?.(null, client, () => client.release());
    return Promise.resolve(client);
  }

  async query(sql: string, params?: unknown[]): Promise<PgResult> {
    const client = new PGliteClient(this);
    try {
      return await client.query(sql, params);
    } finally {
      client.release();
    }
  }

  async end(callback?: (err?: Error) => void): Promise<void> {
    // The database belongs to the data source factory, which closes it after TypeORM has let go.
    callback?.();
  }

  /** @internal Runs a client's statement now, or once the client holding the session (its transaction, or its turn) lets go. */
  submit(client: PGliteClient, sql: string, params?: unknown[]): Promise<PgResult> {
    if (this.owner && this.owner !== client) {
      return new Promise((resolve, reject) => {
        this.waiting.push(() => this.submit(client, sql, params).then(resolve, reject));
      });
    }
    if (!this.owner && !this.shareSession) this.owner = client;
    if (opensTransaction(sql) && !this.inTransaction) {
      this.owner = client;
      this.inTransaction = true;
    }
    const result = this.runner.run(sql, params);
    if (this.inTransaction && closesTransaction(sql)) {
      this.inTransaction = false;
      if (this.shareSession) this.free();
    }
    return result;
  }

  /** @internal A client let go: a transaction it left open is rolled back, and the session is free. */
  released(client: PGliteClient): void {
    if (this.owner !== client) return;
    if (this.inTransaction) this.runner.run('ROLLBACK').catch(() => undefined);
    this.inTransaction = false;
    this.free();
  }

  private free(): void {
    this.owner = null;
    // Sent after the owner's last statement, they run after it; another client's statement among them
    // takes the session again (a BEGIN, or any when not shared) and those behind it wait anew, in order.
    const waiting = this.waiting;
    this.waiting = [];
    for (const next of waiting) next();
  }
}

export class PGliteClient extends EventEmitter {
  private done = false;

  constructor(private readonly pool: PGlitePool) {
    super();
  }

  query(sql: string, params?: unknown[]): Promise<PgResult> {
    return this.pool.submit(this, sql, params);
  }

  release(): void {
    if (this.done) return;
    this.done = true;
    this.pool.released(this);
  }
}

/** `BEGIN …` or `START TRANSACTION …` (a `DO` block's or a function's BEGIN never starts a statement). */
function opensTransaction(sql: string): boolean {
  return /^\s*(BEGIN|START\s+TRANSACTION)\b/i.test(sql);
}

/** `COMMIT`, `END`, `ROLLBACK` or `ABORT` of the whole transaction, not `ROLLBACK TO SAVEPOINT`. */
function closesTransaction(sql: string): boolean {
  return /^\s*(COMMIT|END|ROLLBACK|ABORT)(\s+(WORK|TRANSACTION))?(\s+AND\s+NO\s+CHAIN)?\s*;?\s*$/i.test(sql);
}
