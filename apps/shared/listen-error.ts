/** The variable that moves each service's port. */
export const PORT_VARIABLES: Record<string, string> = {
  'core-api': 'PORT',
  'ai-service': 'AI_SERVICE_PORT',
  marketplace: 'MARKETPLACE_PORT',
};

/** A service could not listen: carries which service, where, and the system's error code. */
export class ListenError extends Error {
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
