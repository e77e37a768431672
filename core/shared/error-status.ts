import { AppError, type ErrorKind } from './errors';

/** The HTTP status of each kind of `AppError`: what the REST API answers, and what an embedding server should answer. */
export const HTTP_STATUS_BY_ERROR_KIND: Readonly<Record<ErrorKind, number>> = Object.freeze({
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
});

/**
 * The HTTP status an error would be answered with by the REST API: its kind's for an `AppError` (or its own
 * `status`, as an upstream's refusal of a key carries), 500 for anything else.
 */
export function httpStatusOf(error: unknown): number {
  if (!(error instanceof AppError)) return 500;
  const own = (error as { status?: unknown }).status;
  return typeof own === 'number' && Number.isInteger(own) && own >= 400 && own <= 599 ? own : HTTP_STATUS_BY_ERROR_KIND[error.kind];
}
