import * as oidc from 'openid-client';
import { AppError, UnauthorizedError, UpstreamError, UpstreamTimeoutError } from '../../core/shared/errors';

/**
 * Codes (openid-client's, from oauth4webapi) of an answer that was read and failed a check: an id token expired
 * or not yet valid, signed by a key the provider does not publish, or with another issuer, audience or nonce.
 */
const FAILED_VERIFICATION = new Set([
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
  'OAUTH_RESPONSE_BODY_ERROR',
]);

/**
 * `OAUTH_INVALID_RESPONSE` covers both a token that fails verification (a bad signature, an unexpected algorithm,
 * a missing claim: the check's cause holds the token's parts) and an answer of the wrong shape (a body without
 * `access_token`: the cause holds that body; a text that is no JWT: the cause is that text). Only the first is
 * the sign-in's fault, and a body that is an OAuth error (GitHub refuses a bad code with 200 and `error`).
 */
function isMalformedAnswer(error: oidc.ClientError): boolean {
  const cause = (error.cause as { cause?: unknown } | undefined)?.cause;
  if (typeof cause === 'string') return true;
  if (typeof cause !== 'object' || cause === null || !Object.hasOwn(cause, 'body')) return false;
  const body = (cause as { body?: unknown }).body;
  return !(typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string');
}

/**
 * An error of an OAuth / OpenID Connect exchange as the platform's error: a refusal by the provider or a
 * response that fails its checks (reused code, wrong state, expired or forged id token, wrong nonce, audience or
 * issuer) is a 401; a provider that cannot be reached, fails (5xx) or answers nonsense is a 502, a slow one a
 * 504. Never the provider's own text.
 */
export function providerError(error: unknown, provider: string): AppError {
  if (error instanceof AppError) return error;
  const refused = () => new UnauthorizedError(`${provider} refused the sign-in or its answer failed verification; start the sign-in again`);
  const unusable = () => new UpstreamError(`${provider} could not be reached or gave an unusable answer`);
  if (error instanceof oidc.ResponseBodyError) return error.status >= 500 ? unusable() : refused();
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.WWWAuthenticateChallengeError) return refused();
  if (error instanceof oidc.ClientError) {
    if (FAILED_VERIFICATION.has(String(error.code))) return refused();
    if (error.code === 'OAUTH_INVALID_RESPONSE') return isMalformedAnswer(error) ? unusable() : refused();
  }
  const name = (error as { name?: unknown })?.name;
  const code = (error as { code?: unknown })?.code;
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT') return new UpstreamTimeoutError(`${provider} did not answer in time`);
  return unusable();
}
