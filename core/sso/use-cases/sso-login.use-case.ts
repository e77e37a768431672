import { randomBytes } from 'node:crypto';
import { issueLoginCode, randomKey, signInExternal, withQuery, type ExternalSignInDeps } from '../../auth/use-cases/external-sign-in';
import { LOGIN_FLOW_TTL_MS } from '../../auth/use-cases/oauth-login.use-case';
import type { LoginFlowStore } from '../../auth/ports/login-flow-store.port';
import { emailDomain, type ExternalProfile } from '../../auth/domain/external-identity';
import type { Clock } from '../../shared/clock.port';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../shared/errors';
import type { SecretBox } from '../../shared/secret-box.port';
import { normalizeEmail, type User } from '../../users/domain/user';
import { mappedRole, oidcSecretAssociatedData, ssoEndpoints, valuesOf, type SsoConfig } from '../domain/sso-config';
import type { SsoConfigRepository } from '../ports/sso-config-repository.port';
import type { OidcClient, OidcConnection, SamlClient } from '../ports/sso-protocols.port';
import type { SsoTeams } from './manage-sso-config.use-case';

export interface SsoLoginDeps extends ExternalSignInDeps {
  teams: SsoTeams;
  configs: SsoConfigRepository;
  flows: LoginFlowStore;
  box: SecretBox;
  oidc: OidcClient;
  saml: SamlClient;
  clock: Clock;
}

/** How long an assertion id is kept when its assertion names no end of validity. */
const ASSERTION_MEMORY_MS = 24 * 60 * 60_000;

/**
 * Single sign-on through a team's OIDC or SAML connection: `start` sends the person to the identity provider,
 * the callbacks verify what comes back, apply the domain restriction, find or provision the account and its
 * team membership (role from the attribute mapping), and answer OAUTH_SUCCESS_URL with a one-time code.
 */
export class SsoLoginUseCase {
  constructor(private readonly deps: SsoLoginDeps) {}

  async start(teamSlug: string, baseUrl: string): Promise<string> {
    const team = await this.deps.teams.findBySlug(teamSlug);
    const config = team && (await this.deps.configs.findByTeam(team.id));
    if (!team || !config || !config.enabled) throw new NotFoundError('SSO', `No single sign-on is enabled for team "${teamSlug}"`);
    const endpoints = ssoEndpoints(baseUrl, team.slug);
    const expiresAt = new Date(this.deps.clock.now().getTime() + LOGIN_FLOW_TTL_MS);
    if (config.protocol === 'oidc') {
      const request = { redirectUri: endpoints.oidcRedirectUri, state: randomKey(), codeVerifier: randomKey(), nonce: randomKey() };
      const url = await this.deps.oidc.authorizationUrl(this.connection(config), request);
      const { state, ...secrets } = request;
      await this.deps.flows.put(`sso-oidc:${state}`, { configId: config.id, ...secrets }, expiresAt);
      return url;
    }
    const request = { requestId: `_${randomBytes(20).toString('hex')}`, relayState: randomKey(), acsUrl: endpoints.samlAcsUrl, spEntityId: endpoints.samlEntityId };
    const url = await this.deps.saml.authorizationUrl(config.saml!, request);
    const { relayState, ...kept } = request;
    await this.deps.flows.put(`sso-saml:${relayState}`, { configId: config.id, ...kept }, expiresAt);
    return url;
  }

  /** The platform's SAML service provider metadata, for identity providers that import it. */
  samlMetadata(baseUrl: string): string {
    const endpoints = ssoEndpoints(baseUrl, '');
    return this.deps.saml.serviceProviderMetadata(endpoints.samlEntityId, endpoints.samlAcsUrl);
  }

  async completeOidc(query: Record<string, unknown>, successUrl: string): Promise<string> {
    if (typeof query.error === 'string') throw new UnauthorizedError('The sign-in was cancelled or refused at the identity provider');
    const state = query.state;
    if (typeof state !== 'string' || !state) throw ValidationError.field('state', 'state is required');
    if (typeof query.code !== 'string' || !query.code) throw ValidationError.field('code', 'code is required');
    const kept = await this.deps.flows.take(`sso-oidc:${state}`, this.deps.clock.now());
    const config = kept && typeof kept.configId === 'string' ? await this.deps.configs.findById(kept.configId) : null;
    if (!kept || !config || config.protocol !== 'oidc' || !config.enabled) {
      throw ValidationError.field('state', 'The sign-in state is unknown, expired or already used; start the sign-in again');
    }
    const request = { redirectUri: String(kept.redirectUri), state, codeVerifier: String(kept.codeVerifier), nonce: String(kept.nonce) };
    const callbackUrl = new URL(request.redirectUri);
    for (const [key, value] of Object.entries(query)) if (typeof value === 'string') callbackUrl.searchParams.set(key, value);
    const claims = await this.deps.oidc.complete(this.connection(config), callbackUrl, request);
    const subject = typeof claims.sub === 'string' ? claims.sub : '';
    return this.signIn(config, subject, claims, claims.email_verified !== false, successUrl);
  }

  async completeSaml(body: unknown, postedTo: string, successUrl: string): Promise<string> {
    const form = (body ?? {}) as Record<string, unknown>;
    const samlResponse = form.SAMLResponse;
    const relayState = form.RelayState;
    if (typeof samlResponse !== 'string' || !samlResponse) throw ValidationError.field('SAMLResponse', 'SAMLResponse is required');
    if (typeof relayState !== 'string' || !relayState) {
      throw ValidationError.field('RelayState', 'RelayState is required: sign in from the platform (identity-provider-initiated sign-in is not supported)');
    }
    const kept = await this.deps.flows.take(`sso-saml:${relayState}`, this.deps.clock.now());
    const config = kept && typeof kept.configId === 'string' ? await this.deps.configs.findById(kept.configId) : null;
    if (!kept || !config || config.protocol !== 'saml' || !config.enabled || !config.saml) {
      throw ValidationError.field('RelayState', 'The sign-in is unknown, expired or already used; start the sign-in again');
    }
    if (postedTo !== kept.acsUrl && postedTo !== String(kept.acsUrl).replace('/api/sso/', '/sso/')) {
      throw new UnauthorizedError('The SAML response was posted to another address than the sign-in asked for');
    }
    const assertion = await this.deps.saml.verify(config.saml, samlResponse, {
      requestId: String(kept.requestId),
      relayState,
      acsUrl: postedTo,
      spEntityId: String(kept.spEntityId),
    });
    const expiresAt = assertion.expiresAt ?? new Date(this.deps.clock.now().getTime() + ASSERTION_MEMORY_MS);
    if (!(await this.deps.configs.recordAssertion(`${config.id}:${assertion.assertionId}`, expiresAt))) {
      throw new UnauthorizedError('The SAML response was refused (replayed assertion)');
    }
    const attributes = { ...assertion.attributes };
    if (valuesOf(attributes, config.mapping.email).length === 0 && /^[^@\s]+@[^@\s]+$/.test(assertion.nameId)) {
      attributes[config.mapping.email] = assertion.nameId;
    }
    return this.signIn(config, assertion.nameId, attributes, true, successUrl);
  }

  private connection(config: SsoConfig): OidcConnection {
    const oidc = config.oidc!;
    return {
      cacheKey: `${config.id}:${config.updatedAt.getTime()}`,
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      clientSecret: this.deps.box.open(oidc.clientSecretSealed, oidcSecretAssociatedData(config.id)),
      scopes: oidc.scopes,
    };
  }

  /** Domain restriction, account (linked, a member's by e-mail, or provisioned), membership and role, then the code. */
  private async signIn(config: SsoConfig, subject: string, attributes: Record<string, unknown>, emailVerified: boolean, successUrl: string): Promise<string> {
    if (!subject) throw new UnauthorizedError('The identity provider did not say who signed in');
    const email = valuesOf(attributes, config.mapping.email)[0];
    if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new UnauthorizedError(`The identity provider did not give an e-mail address (${config.mapping.email})`);
    if (config.allowedDomains.length && !config.allowedDomains.includes(emailDomain(email))) {
      throw new ForbiddenError(`E-mail addresses at ${emailDomain(email)} may not sign in to this team`);
    }
    const profile: ExternalProfile = { subject, email: normalizeEmail(email), emailVerified, displayName: valuesOf(attributes, config.mapping.displayName)[0] ?? null };
    const { user } = await signInExternal(this.deps, { provider: config.protocol, ssoConfigId: config.id }, profile, {
      // A team's identity provider vouches only for the team's own people: it may take over the sign-in of an
      // existing account only when that account is already a member of the team.
      mayLink: async (existing: User) => emailVerified && (await this.deps.teams.roleInTeam(config.teamId, existing.id)) !== null,
      mayCreate: true,
      refusal: 'An account with this e-mail already exists and is not a member of this team; sign in to it and ask for an invitation',
    });
    await this.membership(config, user.id, valuesOf(attributes, config.mapping.groups));
    return withQuery(successUrl, { code: await issueLoginCode(this.deps.flows, this.deps.clock, user.id) });
  }

  /** Adds the user to the team on first sign-in; keeps a mapped role in step (never touching the Owner). */
  private async membership(config: SsoConfig, userId: string, groups: string[]): Promise<void> {
    const mapped = mappedRole(config.mapping, groups);
    const current = await this.deps.teams.roleInTeam(config.teamId, userId);
    if (current === null) {
      try {
        await this.deps.teams.addMember(config.teamId, userId, mapped ?? config.defaultRole);
      } catch (error) {
        // Two first sign-ins at once: the other one added the membership.
        if ((await this.deps.teams.roleInTeam(config.teamId, userId)) === null) throw error;
      }
    } else if (mapped && current !== 'owner' && current !== mapped) {
      await this.deps.teams.setRole(config.teamId, userId, mapped);
    }
  }
}
