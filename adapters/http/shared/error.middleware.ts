import type { Context, Next } from 'koa';
import { STATUS_CODES } from 'node:http';
import { HTTP_STATUS_BY_ERROR_KIND } from '../../../core/shared/error-status';
import { isAppError, type ErrorDetail } from '../../../core/shared/errors';
import type { Logger } from '../../logging/logger';

const STATUS_BY_KIND = HTTP_STATUS_BY_ERROR_KIND;

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  details?: ErrorDetail[];
}

export const errorBody = (statusCode: number, message: string, details?: ErrorDetail[]): ErrorBody => ({
  statusCode,
  message,
  error: STATUS_CODES[statusCode] ?? 'Error',
  ...(details && details.length ? { details } : {}),
});

/**
 * Turns every failure into the error body of ARCHITECTURE.md. Typed core errors keep their message;
 * client errors raised by Koa or its body parsers (status 4xx with `expose`) keep theirs; anything
 * else is logged and answered as a bare 500 without internals.
 */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = errorBody(404, `Cannot ${ctx.method} ${requestedPath(ctx)}`);
      }
    } catch (error) {
      const { status, body } = toResponse(error);
      if (status >= 500 && !isAppError(error)) {
        logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error');
      }
      if (isAppError(error) && error.kind === 'rate_limited' && 'retryAfterSeconds' in error) {
        ctx.set('Retry-After', String((error as { retryAfterSeconds: number }).retryAfterSeconds));
      }
      if (ctx.headerSent || !ctx.writable) return;
      ctx.status = status;
      ctx.body = body;
    }
  };
}

/**
 * The path the client asked for: under a host server's mount (Express sets `req.originalUrl`, the platform's
 * base path keeps it too) the path with its prefix, as the client sent it.
 */
function requestedPath(ctx: Context): string {
  const original = (ctx.req as { originalUrl?: unknown }).originalUrl;
  if (typeof original !== 'string' || original === ctx.req.url) return ctx.path;
  const end = original.indexOf('?');
  return end === -1 ? original : original.slice(0, end);
}

/** The status and error body an error is answered with (also what the audit log records of a failed request). */
export function toResponse(error: unknown): { status: number; body: ErrorBody } {
  if (isAppError(error)) {
    const status = 'status' in error && typeof error.status === 'number' ? error.status : STATUS_BY_KIND[error.kind];
    const details = 'details' in error ? (error.details as ErrorDetail[]) : undefined;
    return { status, body: errorBody(status, error.message, details) };
  }
  const e = error as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown };
  const status = Number(e?.status ?? e?.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    const message = e.expose && typeof e.message === 'string' ? e.message : (STATUS_CODES[status] ?? 'Bad Request');
    return { status, body: errorBody(status, message) };
  }
  return { status: 500, body: errorBody(500, 'Internal server error') };
}
