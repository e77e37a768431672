import * as oidc from 'openid-client';
import type { ExternalProfile } from '../../core/auth/domain/external-identity';
import type { AuthorizationRequest, OAuthProvider } from '../../core/auth/ports/oauth-provider.port';
import { UnauthorizedError } from '../../core/shared/errors';
import { providerError } from './openid-errors';

export interface GitHubOptions {
  clientId: string;
  clientSecret: string;
  /** Where GitHub's OAuth endpoints live (GITHUB_BASE_URL, `https://github.com`). */
  baseUrl: string;
  /** GitHub's REST API (GITHUB_API_URL, `https://api.github.com`). */
  apiUrl: string;
  timeoutMs: number;
}

interface GitHubUser {
  id?: unknown;
  login?: unknown;
  name?: unknown;
}
interface GitHubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

/**
 * Sign-in with GitHub: plain OAuth 2 (no id token) through openid-client on GitHub's standard endpoints, with
 * state and PKCE; who signed in comes from the REST API (`/user`, and `/user/emails` for the verified e-mail).
 */
export class GitHubOAuthProvider implements OAuthProvider {
  readonly id = 'github' as const;
  private readonly config: oidc.Configuration;

  constructor(private readonly options: GitHubOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.config = new oidc.Configuration(
      { issuer: base, authorization_endpoint: `${base}/login/oauth/authorize`, token_endpoint: `${base}/login/oauth/access_token` },
      options.clientId,
      options.clientSecret,
    );
    this.config.timeout = Math.ceil(options.timeoutMs / 1000);
    if (new URL(base).protocol === 'http:' || new URL(options.apiUrl).protocol === 'http:') oidc.allowInsecureRequests(this.config);
  }

  async authorizationUrl(r: AuthorizationRequest): Promise<string> {
    return oidc.buildAuthorizationUrl(this.config, {
      redirect_uri: r.redirectUri,
      scope: 'read:user user:email',
      state: r.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(r.codeVerifier),
      code_challenge_method: 'S256',
      allow_signup: 'true',
    }).href;
  }

  async complete(callbackUrl: URL, r: AuthorizationRequest): Promise<ExternalProfile> {
    try {
      const tokens = await oidc.authorizationCodeGrant(this.config, callbackUrl, { pkceCodeVerifier: r.codeVerifier, expectedState: r.state });
      const user = (await this.api(tokens.access_token, '/user')) as GitHubUser | null;
      if (!user || (typeof user.id !== 'number' && typeof user.id !== 'string')) throw new UnauthorizedError('GitHub did not say who signed in');
      const emails = await this.api(tokens.access_token, '/user/emails');
      const list: GitHubEmail[] = Array.isArray(emails) ? (emails as GitHubEmail[]) : [];
      // The primary address, with GitHub's word on whether it is verified (never another address in its place).
      const chosen = list.find((e) => e.primary === true);
      const name = typeof user.name === 'string' && user.name ? user.name : typeof user.login === 'string' ? user.login : null;
      return {
        subject: String(user.id),
        email: typeof chosen?.email === 'string' ? chosen.email : null,
        emailVerified: chosen?.verified === true,
        displayName: name,
      };
    } catch (error) {
      throw providerError(error, 'GitHub');
    }
  }

  /** A GET on GitHub's API; null when it answers other than 200 (e.g. the e-mail scope was not granted). */
  private async api(accessToken: string, path: string): Promise<unknown> {
    const headers = new Headers({ Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28' });
    const res = await oidc.fetchProtectedResource(this.config, accessToken, new URL(this.options.apiUrl.replace(/\/+$/, '') + path), 'GET', undefined, headers);
    if (res.status !== 200) return null;
    return res.json();
  }
}
