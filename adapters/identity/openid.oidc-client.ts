import * as oidc from 'openid-client';
import type { OidcClient, OidcConnection, OidcRequest } from '../../core/sso/ports/sso-protocols.port';
import { providerError } from './openid-errors';

/** How long a discovered configuration is reused for one connection version. */
const DISCOVERY_TTL_MS = 10 * 60_000;

/**
 * OpenID Connect against teams' identity providers through openid-client: discovery (cached per connection
 * version), authorization code with PKCE and nonce, id token verification, userinfo. Every request goes
 * through `fetch` (the guarded one in production).
 */
export class OpenIdOidcClient implements OidcClient {
  private readonly configs = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  constructor(private readonly options: { fetch: (url: string, init: RequestInit) => Promise<Response>; timeoutMs: number; now?: () => number }) {}

  private configuration(c: OidcConnection): Promise<oidc.Configuration> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.configs.get(c.cacheKey);
    if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
    if (this.configs.size > 1000) this.configs.clear();
    const config = oidc
      // client_secret_basic: the specification's default, which every identity provider supports.
      .discovery(new URL(c.issuer), c.clientId, undefined, oidc.ClientSecretBasic(c.clientSecret), {
        [oidc.customFetch]: this.options.fetch as never,
        timeout: Math.ceil(this.options.timeoutMs / 1000),
        execute: new URL(c.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        this.configs.delete(c.cacheKey);
        throw providerError(error, 'The identity provider');
      });
    this.configs.set(c.cacheKey, { at: now, config });
    return config;
  }

  async authorizationUrl(c: OidcConnection, r: OidcRequest): Promise<string> {
    const config = await this.configuration(c);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: r.redirectUri,
      scope: c.scopes,
      state: r.state,
      nonce: r.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(r.codeVerifier),
      code_challenge_method: 'S256',
    }).href;
  }

  async complete(c: OidcConnection, callbackUrl: URL, r: OidcRequest): Promise<Record<string, unknown>> {
    const config = await this.configuration(c);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: r.codeVerifier,
        expectedState: r.state,
        expectedNonce: r.nonce,
        idTokenExpected: true,
      });
      const claims: Record<string, unknown> = { ...tokens.claims()! };
      if (config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
        // The id token's own claims win: they are signed.
        for (const [k, v] of Object.entries(info)) if (!Object.hasOwn(claims, k)) claims[k] = v;
      }
      return claims;
    } catch (error) {
      throw providerError(error, 'The identity provider');
    }
  }
}
