import Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from '../../logging/logger';
import { errorMiddleware } from './error.middleware';
import { jsonBodyMiddleware } from './json-body.middleware';
import { requestTargetMiddleware } from './request-target.middleware';
import { requestContextMiddleware } from './request-context.middleware';
import { securityHeaders } from './security-headers.middleware';

export interface KoaAppOptions {
  logger: Logger;
  routers: Router[];
  /** Middleware that must run before routing (CORS, for example). */
  before?: Koa.Middleware[];
  jsonLimitBytes?: number;
  /** Trust `X-Forwarded-*` from a reverse proxy (TRUST_PROXY). */
  trustProxy?: boolean;
}

/** The HTTP shell every app shares: request ids, access logs, one error format, JSON bodies, routes. */
export function createKoaApp(options: KoaAppOptions): Koa {
  const app = new Koa({ proxy: options.trustProxy ?? false });
  app.silent = true; // errors are logged by the error middleware, once, without request bodies
  app.use(requestContextMiddleware(options.logger));
  app.use(errorMiddleware(options.logger));
  app.use(securityHeaders);
  app.use(requestTargetMiddleware); // ids canonical, no NUL or ill-formed text in path and query
  for (const mw of options.before ?? []) app.use(mw);
  app.use(jsonBodyMiddleware(options.jsonLimitBytes)); // the one place bodies are parsed and checked
  for (const router of options.routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  return app;
}
