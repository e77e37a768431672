import * as oidc from 'openid-client';
import type { ExternalProfile } from '../../core/auth/domain/external-identity';
import type { AuthorizationRequest, OAuthProvider } from '../../core/auth/ports/oauth-provider.port';
import { providerError } from './openid-errors';

export interface GoogleOptions {
  clientId: string;
  clientSecret: string;
  /** The OpenID issuer (GOOGLE_ISSUER_URL; tests point it at a local fake). */
  issuer: string;
  timeoutMs: number;
}

/** Sign-in with Google through OpenID Connect discovery (openid-client): authorization code, PKCE, nonce, id token (its signature checked). */
export class GoogleOAuthProvider implements OAuthProvider {
  readonly id = 'google' as const;
  private config?: Promise<oidc.Configuration>;

  constructor(private readonly options: GoogleOptions) {}

  private configuration(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, timeoutMs } = this.options;
    this.config ??= oidc
      .discovery(new URL(issuer), clientId, clientSecret, undefined, {
        timeout: Math.ceil(timeoutMs / 1000),
        // The id token's signature is checked against Google's published keys too (openid-client leaves it to TLS
        // by default): a token signed by anyone else fails like an expired one, with a 401.
        execute: [oidc.enableNonRepudiationChecks, ...(new URL(issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [])],
      })
      .catch((error: unknown) => {
        this.config = undefined; // try discovery again on the next sign-in
        throw providerError(error, 'Google');
      });
    return this.config;
  }

  async authorizationUrl(r: AuthorizationRequest): Promise<string> {
    const config = await this.configuration();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: r.redirectUri,
      scope: 'openid email profile',
      state: r.state,
      nonce: r.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(r.codeVerifier),
      code_challenge_method: 'S256',
    }).href;
  }

  async complete(callbackUrl: URL, r: AuthorizationRequest): Promise<ExternalProfile> {
    const config = await this.configuration();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: r.codeVerifier,
        expectedState: r.state,
        expectedNonce: r.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      return {
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        emailVerified: claims.email_verified === true,
        displayName: typeof claims.name === 'string' ? claims.name : null,
      };
    } catch (error) {
      throw providerError(error, 'Google');
    }
  }
}
