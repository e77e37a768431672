import type { Context, Next } from 'koa';
import { STATUS_CODES } from 'node:http';
import { isAppError, type AppError, type ErrorDetail } from '../../../core/shared/errors';
import type { Logger } from '../../logging/logger';

const STATUS_BY_KIND: Record<AppError['kind'], number> = {
  validation: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_failure: 502,
  upstream_timeout: 504,
  unavailable: 503,
};

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
        ctx.body = errorBody(404, `Cannot ${ctx.method} ${ctx.path}`);
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
