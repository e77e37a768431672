import { createServer, type Server } from 'node:http';
import { answerClientError } from '../../adapters/http/shared/client-error';
import type { ComposedApp } from './compose';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { createInfrastructure, type Infrastructure } from './infrastructure';
import { runtimeDescription } from './runtime';
import { resolve, TOKENS } from './tokens';
import { dataDirLockedLine, databaseFailureLine, ListenError, listenFailureLine, redisFailureLine } from './startup-failure';

export interface Listening {
  app: ComposedApp;
  server: Server;
  url: string;
}

/** How long a client may take to send its request; answers (streams included) are not bounded by these. */
export interface ServerTimeouts {
  /** Until the last header has arrived (sheds connections that dribble header bytes). */
  headersTimeoutMs: number;
  /** Until the whole request, body included, has arrived (uploads are the largest). */
  requestTimeoutMs: number;
  /** How often the server looks for connections past those limits (Node's default is 30 s). */
  checkIntervalMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersTimeoutMs: 15_000, requestTimeoutMs: 300_000, checkIntervalMs: 1_000 };

/** Starts an HTTP server for a composed app; resolves once it listens. */
export function listen(app: ComposedApp, host: string, port: number, timeouts: ServerTimeouts = DEFAULT_SERVER_TIMEOUTS): Promise<Listening> {
  const server = createServer({ connectionsCheckingInterval: timeouts.checkIntervalMs }, app.app.callback());
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs; // counts until the request has arrived, never a streamed answer
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ListenError(app.name, host, port, error.code, error)));
    server.listen(port, host, () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({ app, server, url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}` });
    });
  });
}

/**
 * Stops accepting, lets in-flight requests finish (up to `graceMs`), then stops the apps and (unless told
 * otherwise) closes the infrastructure.
 */
export async function shutdown(listening: readonly Listening[], infra: Infrastructure, graceMs = 10_000, options: { closeInfrastructure?: boolean } = {}): Promise<void> {
  await Promise.all(
    listening.map(
      ({ server }) =>
        new Promise<void>((resolve) => {
          const force = setTimeout(() => {
            server.closeAllConnections();
            resolve();
          }, graceMs);
          force.unref();
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
        }),
    ),
  );
  for (const { app } of listening) await app.stop();
  if (options.closeInfrastructure ?? true) await infra.close();
}

/**
 * Runs a process: reads the environment (a bad value stops it with one line naming the variable),
 * opens the infrastructure, starts the apps and shuts down gracefully on SIGTERM/SIGINT.
 */
export async function runProcess(start: (config: AppConfig, infra: Infrastructure) => Promise<Listening[]>): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let infra: Infrastructure;
  try {
    infra = await createInfrastructure(config);
  } catch (error) {
    const line = dataDirLockedLine(error) ?? databaseFailureLine(error, config.databaseUrl) ?? redisFailureLine(error);
    if (!line) throw error;
    process.stderr.write(`${line}\n`);
    process.exit(1);
  }
  const runtime = runtimeDescription();
  infra.logger.info({ runtime }, 'starting');
  if (!runtime.noNodeSnapshot) {
    infra.logger.warn('Node.js runs without --no-node-snapshot, which the plugin sandbox (isolated-vm) needs: start through npm, or set NODE_OPTIONS=--no-node-snapshot');
  }
  if (config.generatedSecrets.length) {
    infra.logger.warn(
      { secrets: config.generatedSecrets, dir: `${config.dataDir}/secrets` },
      'generated development secrets into DATA_DIR; set them explicitly in production',
    );
  }
  let listening: Listening[];
  try {
    listening = await start(config, infra);
  } catch (error) {
    // A busy port is the operator's to fix: one line naming it and the variable that moves it, not a stack.
    const line = listenFailureLine(error);
    if (!line) throw error;
    process.stderr.write(`${line}\n`);
    await Promise.race([infra.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
    process.exit(1);
  }
  for (const l of listening) infra.logger.info({ service: l.app.name, url: l.url }, 'listening');
  announce(listening, config, infra.logger);
  // `npm run marketplace:seed` on the same embedded database reaches the catalog through this address.
  const marketplace = listening.find((l) => l.app.name === 'marketplace');
  if (marketplace) infra.database.lock?.note({ marketplaceUrl: reachableUrl(marketplace.url) });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    infra.logger.info({ signal }, 'shutting down');
    shutdown(listening, infra)
      .then(() => process.exit(0))
      .catch((err) => {
        infra.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * The start log's lines for a newcomer: the console's address, the API reference, and (while the platform has
 * no admin) the one-time setup link that makes its admin. The console's address is PUBLIC_BASE_URL, else where
 * the core API listens.
 */
export function announce(listening: readonly Listening[], config: Pick<AppConfig, 'publicBaseUrl'>, logger: Infrastructure['logger']): void {
  const core = listening.find((l) => l.app.name === 'core-api');
  if (core) {
    const consoleUrl = config.publicBaseUrl ?? reachableUrl(core.url);
    logger.info({ service: core.app.name, url: `${consoleUrl}/` }, `Console: ${consoleUrl}/`);
    const pending = core.app.container.isBound(TOKENS.PendingSetupLink) ? resolve(core.app.container, TOKENS.PendingSetupLink).link : null;
    if (pending) {
      const url = `${consoleUrl}/setup?token=${encodeURIComponent(pending.token)}`;
      logger.info(
        { service: core.app.name, url, expiresAt: pending.expiresAt.toISOString() },
        `Set up this platform: open ${url} to create its admin account. The link works once, until ${pending.expiresAt.toISOString()}; while the platform has no admin, each start prints a new one.`,
      );
    }
  }
  // Where a newcomer reads what the API offers: the core API's reference when it runs here, else the first service's.
  const reference = core ?? listening[0];
  if (reference) {
    const docs = `${reachableUrl(reference.url)}/api/docs`;
    logger.info({ service: reference.app.name, url: docs }, `API reference: ${docs} (OpenAPI at /api/openapi.json)`);
  }
}

/** A listening address another local process can connect to: the loopback for a wildcard address. */
function reachableUrl(url: string): string {
  return url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
}
