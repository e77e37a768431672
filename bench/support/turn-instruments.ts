import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { DataSource } from 'typeorm';

/** What `bench:turn` asks a platform process for, over its IPC channel. */
export type InstrumentRequest = { type: 'start'; profile: string | null } | { type: 'stop' };
export interface InstrumentReport {
  /** Statements by their text (whitespace collapsed), counted at the database session's runner. */
  statements: Record<string, number>;
  /** CPU of the whole process (every thread, the embedded database's included) between start and stop, ms. */
  cpuMs: number;
  /** Where the main thread's CPU profile of the window was written, when asked for. */
  profile: string | null;
}

/**
 * Counts the statements a platform process sends to its embedded database, by text, and profiles its main thread
 * between a `start` and a `stop` message from the bench (BENCH_INSTRUMENT=1 on `platform.server.ts`). Counting
 * wraps the PGlite pool's statement runner, as the per-step costs do (bench/support/policy-costs.ts).
 */
export function instrument(dataSource: DataSource): void {
  const pool = (dataSource.driver as unknown as { master: { runner?: { run: (sql: string, ...rest: unknown[]) => unknown } } }).master;
  if (!pool.runner) throw new Error('BENCH_INSTRUMENT counts statements on the embedded database only');
  let counting = false;
  let statements = new Map<string, number>();
  const run = pool.runner.run.bind(pool.runner);
  pool.runner.run = (sql: string, ...rest: unknown[]) => {
    if (counting) {
      const key = sql.replace(/\s+/g, ' ').trim();
      statements.set(key, (statements.get(key) ?? 0) + 1);
    }
    return run(sql, ...rest);
  };
  let session: Session | null = null;
  let profilePath: string | null = null;
  let cpu = process.cpuUsage();
  process.on('message', (message: InstrumentRequest) => {
    void (async () => {
      if (message.type === 'start') {
        statements = new Map();
        counting = true;
        profilePath = message.profile;
        if (profilePath) {
          session = new Session();
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: 200 });
          await session.post('Profiler.start');
        }
        cpu = process.cpuUsage();
        process.send!({ type: 'started' });
      } else if (message.type === 'stop') {
        const used = process.cpuUsage(cpu);
        counting = false;
        if (session) {
          const { profile } = await session.post('Profiler.stop');
          writeFileSync(profilePath!, JSON.stringify(profile));
          session.disconnect();
          session = null;
        }
        const report: InstrumentReport = { statements: Object.fromEntries(statements), cpuMs: (used.user + used.system) / 1000, profile: profilePath };
        process.send!({ type: 'report', report });
      }
    })();
  });
}
