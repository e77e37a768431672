import { RateLimitedError } from '../../shared/errors';
import type { RateLimitDecision } from '../../shared/rate-limiter.port';

/** A key went past its requests per minute; carries the decision so the answer can still describe the window. */
export class ApiKeyRateLimitedError extends RateLimitedError {
  constructor(readonly decision: RateLimitDecision) {
    super(
      `This API key allows ${decision.limit} requests per minute; try again in ${decision.retryAfterSeconds} s`,
      decision.retryAfterSeconds,
    );
  }
}
