import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../../logging/logger';

const INCOMING_ID = /^[\w.-]{1,100}$/;

/** A request id (kept from `X-Request-Id` when well-formed) and one access-log line per request. */
export function requestContextMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The path only: query strings may carry tokens.
        logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
      }
    }
  };
}
