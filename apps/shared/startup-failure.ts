import { hostname } from 'node:os';
import { DataDirLockedError } from '../../adapters/persistence/pglite/data-dir-lock';
import { PlatformError } from '../../core/shared/platform-errors';

/** The variable that moves each service's port. */
export const PORT_VARIABLES: Record<string, string> = {
  'core-api': 'PORT',
  'ai-service': 'AI_SERVICE_PORT',
  marketplace: 'MARKETPLACE_PORT',
};

/** A service could not listen: carries which service, where, and the system's error code. */
export class ListenError extends PlatformError {
  readonly failure = 'listen' as const;
  constructor(
    readonly service: string,
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
    cause: unknown,
  ) {
    super(`${service} could not listen on ${host}:${port} (${code ?? 'unknown error'})`, { cause });
  }
}

/**
 * The one line an operator reads when a service cannot take its port, naming the port and the variable that
 * moves it; undefined for errors that are not about listening (those keep their stack: they are bugs).
 */
export function listenFailureLine(error: unknown): string | undefined {
  if (!(error instanceof ListenError)) return undefined;
  const variable = PORT_VARIABLES[error.service] ?? 'PORT';
  const where = `${error.host.includes(':') ? `[${error.host}]` : error.host}:${error.port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${error.port} is already in use (${error.service} on ${where}): stop the program using it, or set ${variable} to a free port.`;
    case 'EACCES':
      return `Port ${error.port} needs privileges this process lacks (${error.service} on ${where}): set ${variable} to a port above 1023.`;
    case 'EADDRNOTAVAIL':
      return `Address ${error.host} is not on this machine (${error.service} on ${where}): set HOST to one of its addresses, or 0.0.0.0.`;
    default:
      return `${error.service} could not listen on ${where} (${error.code ?? 'unknown error'}): check HOST and ${variable}.`;
  }
}

/** Errors of reaching PostgreSQL that an operator fixes in DATABASE_URL or by starting the server. */
const DATABASE_UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH']);
/** SQLSTATEs of a refused connection: bad password or role, no such database, server starting or shutting down. */
const DATABASE_REFUSED = new Set(['28P01', '28000', '3D000', '57P03', '57P01']);

/**
 * The one line for a database the process cannot open: where it tried (host, port and database, never the user
 * or password of the URL) and why, in PostgreSQL's or the system's words. Undefined for anything else.
 */
export function databaseFailureLine(error: unknown, databaseUrl: string | undefined): string | undefined {
  if (!databaseUrl || !(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (!code || !(DATABASE_UNREACHABLE.has(code) || DATABASE_REFUSED.has(code))) return undefined;
  let where = 'the server';
  try {
    const url = new URL(databaseUrl);
    where = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    // a URL pg accepted but URL does not: name no place rather than echo it (it may hold a password)
  }
  // An AggregateError (every address of a host refused) has no message of its own, only the code.
  const reason = (error.message || code).replace(databaseUrl, 'DATABASE_URL');
  return `Cannot open the database of DATABASE_URL (${where}): ${reason}. Check DATABASE_URL and that PostgreSQL is running.`;
}

/** Redis did not become ready at start-up: where (host and port, never the URL's password) and the last error. */
export class RedisUnreachableError extends PlatformError {
  readonly failure = 'redis_unreachable' as const;
  constructor(readonly where: string, readonly reason: string) {
    super(`Redis at ${where} is unreachable: ${reason}`);
  }
}

/** Where a Redis URL points, without its credentials. */
export function redisWhere(redisUrl: string): string {
  try {
    const url = new URL(redisUrl);
    return `${url.hostname}:${url.port || '6379'}`;
  } catch {
    return 'the server';
  }
}

/** The one line for a Redis the process cannot reach at start-up; undefined for anything else. */
export function redisFailureLine(error: unknown): string | undefined {
  if (!(error instanceof RedisUnreachableError)) return undefined;
  return `Cannot reach Redis of REDIS_URL (${error.where}): ${error.reason}. Check REDIS_URL and that Redis is running, or unset it to run on one instance.`;
}

/**
 * The one line for an embedded database another process holds: which folder, the holder's pid and command, and what
 * to do. The refused process has changed nothing (the lock is taken before the database is opened).
 */
export function dataDirLockedLine(error: unknown): string | undefined {
  if (!(error instanceof DataDirLockedError)) return undefined;
  const h = error.holder;
  if (!h) {
    return `The embedded database in ${error.databaseDir} is in use by another process: stop it first, or set DATA_DIR to another folder (nothing was changed).`;
  }
  const since = /^\d{4}-\d\d-\d\dT(\d\d:\d\d:\d\d)/.exec(h.since)?.[1];
  const elsewhere = h.hostname && h.hostname !== hostname() ? ` on host ${h.hostname}` : '';
  return (
    `The embedded database in ${error.databaseDir} is in use by process ${h.pid}${elsewhere} (${h.command}${since ? `, since ${since} UTC` : ''}): ` +
    `stop it first (Ctrl-C where it runs, or kill ${h.pid}), or set DATA_DIR to another folder (nothing was changed).`
  );
}
