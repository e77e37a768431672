import Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from '../../logging/logger';
import { errorMiddleware } from './error.middleware';
import { jsonBodyMiddleware } from './json-body.middleware';
import { requestContextMiddleware } from './request-context.middleware';
import { securityHeaders } from './security-headers.middleware';

export interface KoaAppOptions {
  logger: Logger;
  routers: Router[];
  /** Middleware that must run before routing (CORS, for example). */
  before?: Koa.Middleware[];
  jsonLimitBytes?: number;
}

/** The HTTP shell every app shares: request ids, access logs, one error format, JSON bodies, routes. */
export function createKoaApp(options: KoaAppOptions): Koa {
  const app = new Koa({ proxy: process.env.TRUST_PROXY === 'true' });
  app.silent = true; // errors are logged by the error middleware, once, without request bodies
  app.use(requestContextMiddleware(options.logger));
  app.use(errorMiddleware(options.logger));
  app.use(securityHeaders);
  for (const mw of options.before ?? []) app.use(mw);
  app.use(jsonBodyMiddleware(options.jsonLimitBytes));
  for (const router of options.routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  return app;
}
