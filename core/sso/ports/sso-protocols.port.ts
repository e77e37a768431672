import type { SamlSettings } from '../domain/sso-config';

export interface OidcConnection {
  /** Caches the provider's discovery per connection version. */
  cacheKey: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export interface OidcRequest {
  redirectUri: string;
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** OpenID Connect against a team's identity provider (authorization code, PKCE, nonce, verified id token). */
export interface OidcClient {
  authorizationUrl(connection: OidcConnection, request: OidcRequest): Promise<string>;
  /** The verified id token's claims merged with the userinfo's. UnauthorizedError when refused or invalid. */
  complete(connection: OidcConnection, callbackUrl: URL, request: OidcRequest): Promise<Record<string, unknown>>;
}

export interface SamlRequest {
  requestId: string;
  relayState: string;
  /** The assertion consumer service URL, which responses must name as their recipient. */
  acsUrl: string;
  /** The platform's entity id, the audience assertions must be restricted to. */
  spEntityId: string;
}

export interface SamlAssertion {
  /** The signed assertion's ID (replay protection). */
  assertionId: string;
  /** Until when the assertion may be used (its NotOnOrAfter), to keep its id that long. */
  expiresAt: Date | null;
  nameId: string;
  attributes: Record<string, unknown>;
}

/** SAML 2.0 as a service provider: sign-in requests, and verification of the identity provider's responses. */
export interface SamlClient {
  authorizationUrl(settings: SamlSettings, request: SamlRequest): Promise<string>;
  /**
   * Verifies a base64 SAMLResponse posted to `request.acsUrl`: DOCTYPE refused (400), one signed assertion
   * (signature, wrapping), issuer, audience, recipient, time conditions, InResponseTo. UnauthorizedError otherwise.
   */
  verify(settings: SamlSettings, samlResponse: string, request: SamlRequest): Promise<SamlAssertion>;
  /** The platform's service provider metadata XML (entity id, ACS URL, signed assertions wanted). */
  serviceProviderMetadata(spEntityId: string, acsUrl: string): string;
  /** The entity id, SSO URL (HTTP-Redirect) and signing certificate of IdP metadata XML; ValidationError when unusable. */
  readMetadata(xml: string): SamlSettings;
}
