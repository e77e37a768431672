import type { DataSource } from 'typeorm';

/** How often the upkeep looks at the tables. */
const INTERVAL_MS = 10_000;
/** A table is analyzed again once it has grown by this many pages, and a tenth of its size, since the last time (and once it first holds rows). */
const MIN_GROWTH_PAGES = 8;
/** Tables whose oldest unfrozen transaction is this old are vacuumed (PostgreSQL's own default is 200 million). */
const FREEZE_AGE = 150_000_000;

/**
 * What the autovacuum daemon does for a PostgreSQL server, for the embedded PGlite, which runs
 * PostgreSQL in single-user mode without it.
 *
 * - Planner statistics. Without them the planner keeps seeing each table as it was when a statement
 *   was first prepared: the generic plans cached for the prepared statements (pglite-statements) are
 *   made while the tables are nearly empty, and scan them whole once they have grown. Storing a chat
 *   answer took 9 ms with 20,000 conversations instead of under 1 ms. So every table that has grown
 *   by a tenth since its last ANALYZE is analyzed, which also makes PostgreSQL plan the statements on
 *   it again; so is a table that holds rows and was never analyzed, however small (a handful of
 *   knowledge documents in one page had no statistics, and a join to them was planned over every chunk).
 * - Transaction ids. PostgreSQL stops writing before its transaction counter wraps around unless old
 *   rows are frozen, so tables holding old unfrozen rows are vacuumed.
 *
 * It runs every ten seconds on the database's own session, between other statements, and is best
 * effort: a round that fails is tried again at the next one.
 */
export class PGliteUpkeep {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(private readonly dataSource: DataSource, private readonly intervalMs = INTERVAL_MS) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .catch(() => undefined) // best effort: the next round tries again
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the rounds and waits for one under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One round: analyzes the tables that grew and vacuums the ones that need freezing; answers what it did. */
  async runOnce(): Promise<{ analyzed: string[]; vacuumed: string[] }> {
    const tables: Array<{ name: string; grown: boolean; old: boolean }> = await this.dataSource.query(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name,
              (c.reltuples < 0 AND pg_relation_size(c.oid) > 0)
                OR pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages, 0) * 1.1 + $1 AS grown,
              age(c.relfrozenxid) > $2 AS old
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'm') AND n.nspname = current_schema()
        ORDER BY c.relname`,
      [MIN_GROWTH_PAGES, FREEZE_AGE],
    );
    const done = { analyzed: [] as string[], vacuumed: [] as string[] };
    for (const table of tables) {
      if (table.old) {
        await this.dataSource.query(`VACUUM (ANALYZE) ${table.name}`);
        done.vacuumed.push(table.name);
      } else if (table.grown) {
        await this.dataSource.query(`ANALYZE ${table.name}`);
        done.analyzed.push(table.name);
      }
    }
    return done;
  }
}
