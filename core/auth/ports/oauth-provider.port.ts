import type { ExternalProfile, OAuthProviderId } from '../domain/external-identity';

/** The secrets of one authorization request, kept by the platform until the provider sends the person back. */
export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** One OAuth 2 / OpenID Connect provider the platform signs people in with (authorization code + PKCE). */
export interface OAuthProvider {
  readonly id: OAuthProviderId;
  authorizationUrl(request: AuthorizationRequest): Promise<string>;
  /**
   * Exchanges the code of `callbackUrl` (the full URL the provider redirected to), checking state, PKCE and
   * nonce, and reads who signed in. Throws UnauthorizedError when the provider refuses (reused code, bad state)
   * and UpstreamFailureError when it cannot be reached.
   */
  complete(callbackUrl: URL, request: AuthorizationRequest): Promise<ExternalProfile>;
}
