/**
 * Typed errors thrown by use cases. The HTTP error middleware maps each kind to a status code
 * (SPEC section 7); nothing else in the code decides status codes for failures.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'upstream_failure'
  | 'upstream_timeout'
  | 'unavailable';

export class ValidationError extends AppError {
  readonly kind = 'validation' as const;
  constructor(message: string, readonly details: ErrorDetail[] = []) {
    super(message);
  }
  /** One-field shorthand: `ValidationError.field('email', 'email must be a valid e-mail')`. */
  static field(path: string, message: string): ValidationError {
    return new ValidationError(message, [{ path, message }]);
  }
}

export class UnauthorizedError extends AppError {
  readonly kind = 'unauthorized' as const;
  constructor(message = 'Authentication required') {
    super(message);
  }
}

/** Which limit of a plan refused a call, for a caller that is code (`PaymentRequiredError.limit`). */
export interface PlanLimitHit {
  /** What ran out: resources of the plan, its monthly allowances, or the platform's provider keys (not in the plan). */
  limit: 'applications' | 'apiKeys' | 'messages' | 'tokens' | 'platformKeys';
  /** The plan id of the account held to it. */
  plan: string;
  /** The plan's allowance of that limit (null for `platformKeys`). */
  max: number | null;
  /** Whose plan: the caller's own, or the Owner's of the team the resource is in. */
  whose: 'own' | 'team owner';
  /** The provider the call needed keys for (`platformKeys`, `tokens`). */
  provider?: string;
  /** The first day (YYYY-MM-DD, UTC) a monthly allowance is whole again (`messages`, `tokens`). */
  resetsOn?: string;
}

export class PaymentRequiredError extends AppError {
  readonly kind = 'payment_required' as const;
  /** The plan limit that refused the call, when a plan's limit did. */
  readonly limit?: PlanLimitHit;
  constructor(message: string, limit?: PlanLimitHit) {
    super(message);
    if (limit) this.limit = limit;
  }
}

export class ForbiddenError extends AppError {
  readonly kind = 'forbidden' as const;
  constructor(message = 'You do not have permission to do this') {
    super(message);
  }
}

export class NotFoundError extends AppError {
  readonly kind = 'not_found' as const;
  /** `new NotFoundError('Application')` reads "Application not found". */
  constructor(resource: string, message = `${resource} not found`) {
    super(message);
  }
}

export class ConflictError extends AppError {
  readonly kind = 'conflict' as const;
}

export class PayloadTooLargeError extends AppError {
  readonly kind = 'payload_too_large' as const;
}

export class UnsupportedMediaTypeError extends AppError {
  readonly kind = 'unsupported_media_type' as const;
}

export class RateLimitedError extends AppError {
  readonly kind = 'rate_limited' as const;
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}

/**
 * The provider or another service answered with a failure (502), refused the request (400), throttled
 * it (429) or refused the provider key (424 Failed Dependency: the key is at fault, not the caller's
 * session, so a client must not read it as a 401 and sign its user out).
 */
export class UpstreamError extends AppError {
  readonly kind = 'upstream_failure' as const;
  constructor(
    message: string,
    readonly status: 400 | 424 | 429 | 502 = 502,
    /** How long the provider asked to wait before trying again (its `Retry-After`), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export class UpstreamTimeoutError extends AppError {
  readonly kind = 'upstream_timeout' as const;
}

export class UnavailableError extends AppError {
  readonly kind = 'unavailable' as const;
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** A provider refused the key it was called with: the one failure a key's owner must fix. */
export const isProviderKeyRejection = (error: unknown): error is UpstreamError => error instanceof UpstreamError && error.status === 424;
