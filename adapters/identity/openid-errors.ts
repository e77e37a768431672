import * as oidc from 'openid-client';
import { AppError, UnauthorizedError, UpstreamError, UpstreamTimeoutError } from '../../core/shared/errors';

/**
 * An error of an OAuth / OpenID Connect exchange as the platform's error: a refusal by the provider or a
 * response that fails its checks (reused code, wrong state, bad signature, wrong nonce) is a 401; a provider
 * that cannot be reached or answers nonsense is a 502, a slow one a 504. Never the provider's own text.
 */
export function providerError(error: unknown, provider: string): AppError {
  if (error instanceof AppError) return error;
  if (
    error instanceof oidc.ResponseBodyError ||
    error instanceof oidc.AuthorizationResponseError ||
    error instanceof oidc.WWWAuthenticateChallengeError ||
    (error instanceof oidc.ClientError && /^OAUTH_(JWT_CLAIM_COMPARISON|JSON_ATTRIBUTE_COMPARISON|INVALID_RESPONSE|RESPONSE_BODY_ERROR)/.test(String(error.code)))
  ) {
    return new UnauthorizedError(`${provider} refused the sign-in or its answer failed verification; start the sign-in again`);
  }
  const name = (error as { name?: unknown })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new UpstreamTimeoutError(`${provider} did not answer in time`);
  return new UpstreamError(`${provider} could not be reached or gave an unusable answer`);
}
