import {
  ConflictError, NotFoundError, PayloadTooLargeError, PaymentRequiredError, RateLimitedError, UnavailableError,
  UnsupportedMediaTypeError, UpstreamError, UpstreamTimeoutError, ValidationError, ForbiddenError, type AppError,
} from '../../core/shared/errors';

/**
 * Rebuilds the core error an internal service answered with, so a remote port fails exactly like the
 * in-process one. `service` names it when the failure is the service's own.
 */
const PROVIDER_REFUSAL = /^provider_[a-d] refused the request: /;

export function errorFromResponse(service: string, status: number, body: unknown, retryAfter?: string | null): AppError {
  const b = (body ?? {}) as { message?: unknown; details?: unknown };
  const message = typeof b.message === 'string' ? b.message : `${service} answered ${status}`;
  switch (status) {
    case 400:
      // A provider's own refusal, relayed: the provider was asked (and the failed answer stored), which a
      // validation error would deny. The AI service words it as `toProviderError` does.
      if (PROVIDER_REFUSAL.test(message)) return new UpstreamError(message, 400);
      return new ValidationError(message, Array.isArray(b.details) ? b.details : []);
    case 401:
      // This service refused our token: a deployment fault, never the caller's session.
      return new UpstreamError(`${service} refused our credentials`, 502);
    case 424:
      // The provider refused the key (relayed with its hint).
      return new UpstreamError(message, 424);
    case 402:
      return new PaymentRequiredError(message);
    case 403:
      return new ForbiddenError(message);
    case 404:
      return new NotFoundError('Resource', message);
    case 409:
      return new ConflictError(message);
    case 413:
      return new PayloadTooLargeError(message);
    case 415:
      return new UnsupportedMediaTypeError(message);
    case 429:
      return new RateLimitedError(message, Number(retryAfter) || 1);
    case 503:
      return new UnavailableError(message);
    case 504:
      return new UpstreamTimeoutError(message);
    default:
      return new UpstreamError(status >= 500 && status !== 502 ? `${service} failed (${status})` : message, 502);
  }
}
