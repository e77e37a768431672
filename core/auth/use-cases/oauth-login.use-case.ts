import type { Clock } from '../../shared/clock.port';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../shared/errors';
import { ssoRequiredError, type SsoEnforcement } from '../../sso/ports/sso-enforcement.port';
import { OAUTH_PROVIDER_NAMES, type OAuthProviderId } from '../domain/external-identity';
import type { LoginFlowStore } from '../ports/login-flow-store.port';
import type { AuthorizationRequest, OAuthProvider } from '../ports/oauth-provider.port';
import { issueLoginCode, randomKey, signInExternal, withQuery, type ExternalSignInDeps } from './external-sign-in';

/** How long a person may take at the provider between leaving and coming back. */
export const LOGIN_FLOW_TTL_MS = 10 * 60_000;

export interface OAuthLoginDeps extends ExternalSignInDeps {
  providers: ReadonlyMap<OAuthProviderId, OAuthProvider>;
  flows: LoginFlowStore;
  clock: Clock;
  enforcement?: SsoEnforcement;
}

/** The enabled providers, as `GET /api/auth/providers` lists them. */
export function listOAuthProviders(providers: ReadonlyMap<OAuthProviderId, OAuthProvider>) {
  return [...providers.keys()].map((id) => ({ id, name: OAUTH_PROVIDER_NAMES[id], authorizeUrl: `/api/auth/${id}` }));
}

/**
 * Sign-in with GitHub or Google (authorization code with state and PKCE). `start` keeps the request's secrets
 * and answers the provider's URL; `complete` takes them back once (a second use of the state is refused),
 * lets the provider check the code, finds or links or creates the account (linking only by a verified e-mail)
 * and answers where to send the browser: OAUTH_SUCCESS_URL with a one-time code for the tokens.
 */
export class OAuthLoginUseCase {
  constructor(private readonly deps: OAuthLoginDeps) {}

  private provider(id: string): OAuthProvider {
    const provider = Object.hasOwn(OAUTH_PROVIDER_NAMES, id) ? this.deps.providers.get(id as OAuthProviderId) : undefined;
    if (!provider) throw new NotFoundError('OAuth provider', `Sign-in with ${id} is not configured`);
    return provider;
  }

  async start(providerId: string, baseUrl: string): Promise<string> {
    const provider = this.provider(providerId);
    const request: AuthorizationRequest = {
      redirectUri: `${baseUrl}/api/auth/${provider.id}/callback`,
      state: randomKey(),
      codeVerifier: randomKey(),
      nonce: randomKey(),
    };
    const url = await provider.authorizationUrl(request);
    const { state, ...secrets } = request;
    await this.deps.flows.put(`oauth:${state}`, { provider: provider.id, ...secrets }, new Date(this.deps.clock.now().getTime() + LOGIN_FLOW_TTL_MS));
    return url;
  }

  async complete(providerId: string, query: Record<string, unknown>, successUrl: string): Promise<string> {
    const provider = this.provider(providerId);
    if (typeof query.error === 'string') throw new UnauthorizedError(`The sign-in was cancelled or refused at ${OAUTH_PROVIDER_NAMES[provider.id]}`);
    const state = query.state;
    if (typeof state !== 'string' || !state) throw ValidationError.field('state', 'state is required');
    if (typeof query.code !== 'string' || !query.code) throw ValidationError.field('code', 'code is required');
    const kept = await this.deps.flows.take(`oauth:${state}`, this.deps.clock.now());
    if (!kept || kept.provider !== provider.id) {
      throw ValidationError.field('state', 'The sign-in state is unknown, expired or already used; start the sign-in again');
    }
    const request: AuthorizationRequest = {
      redirectUri: String(kept.redirectUri),
      state,
      codeVerifier: String(kept.codeVerifier),
      nonce: String(kept.nonce),
    };
    const callbackUrl = new URL(request.redirectUri);
    for (const [key, value] of Object.entries(query)) if (typeof value === 'string') callbackUrl.searchParams.set(key, value);
    const profile = await provider.complete(callbackUrl, request);
    const name = OAUTH_PROVIDER_NAMES[provider.id];
    const { user } = await signInExternal(this.deps, { provider: provider.id, ssoConfigId: null }, profile, {
      mayLink: async () => profile.emailVerified,
      mayCreate: profile.emailVerified,
      refusal: `An account with this e-mail already exists and ${name} has not verified the address; sign in with your password instead`,
    });
    const team = await this.deps.enforcement?.enforcingTeamOf(user.id);
    if (team) throw ssoRequiredError(team);
    return withQuery(successUrl, { code: await issueLoginCode(this.deps.flows, this.deps.clock, user.id) });
  }
}
