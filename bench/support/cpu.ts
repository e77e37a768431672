import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system, ms) of the processes `pick` selects, from /proc; 0 where /proc is missing. */
export function cpuMs(pick: (pid: number, command: string) => boolean): number {
  let ticks = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!pick(Number(entry), command)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/**
 * Measures what a load run costs in CPU per request: each server process and, given, the local
 * PostgreSQL server processes (their work for the run's statements).
 */
export async function cpuPerRequest<T extends { requests: { total: number } }>(
  serverPids: number[],
  withPostgres: boolean,
  run: () => Promise<T>,
): Promise<{ result: T; serverMs: number[]; postgresMs: number }> {
  const servers = () => serverPids.map((serverPid) => cpuMs((pid) => pid === serverPid));
  const postgres = () => (withPostgres ? cpuMs((_, command) => command.startsWith('postgres')) : 0);
  const [serversBefore, postgresBefore] = [servers(), postgres()];
  const result = await run();
  const n = Math.max(1, result.requests.total);
  return { result, serverMs: servers().map((ms, i) => (ms - serversBefore[i]!) / n), postgresMs: (postgres() - postgresBefore) / n };
}
