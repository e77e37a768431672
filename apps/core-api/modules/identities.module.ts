import type { Container } from 'inversify';
import { externalLoginUrls, oauthRouter } from '../../../adapters/http/auth/oauth.router';
import { GitHubOAuthProvider } from '../../../adapters/identity/github.oauth-provider';
import { GoogleOAuthProvider } from '../../../adapters/identity/google.oauth-provider';
import { TypeOrmIdentityRepository, TypeOrmLoginFlowStore } from '../../../adapters/persistence/auth/type-orm-identity.repository';
import type { OAuthProviderId } from '../../../core/auth/domain/external-identity';
import type { OAuthProvider } from '../../../core/auth/ports/oauth-provider.port';
import { ExchangeLoginCodeUseCase } from '../../../core/auth/use-cases/exchange-login-code.use-case';
import { IdentitiesUseCase } from '../../../core/auth/use-cases/identities.use-case';
import { OAuthLoginUseCase } from '../../../core/auth/use-cases/oauth-login.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { IDENTITY_TOKENS } from './identities.tokens';

/**
 * Sign-in with GitHub and Google (each when configured), the one-time code exchange that finishes every
 * external login (OAuth and SSO), and the user's linked identities. After the accounts module.
 */
export const identitiesModule: AppModule = {
  name: 'identities',
  bind(c: Container) {
    provide(c, IDENTITY_TOKENS.IdentityRepository, (get) => new TypeOrmIdentityRepository(get(TOKENS.DataSource)));
    provide(c, IDENTITY_TOKENS.LoginFlowStore, (get) => new TypeOrmLoginFlowStore(get(TOKENS.DataSource)));
    provide(c, IDENTITY_TOKENS.OAuthProviders, (get) => {
      const config = get(TOKENS.Config);
      const { oauth } = config;
      const providers = new Map<OAuthProviderId, OAuthProvider>();
      if (oauth.github) {
        providers.set('github', new GitHubOAuthProvider({ ...oauth.github, baseUrl: oauth.githubBaseUrl, apiUrl: oauth.githubApiUrl, timeoutMs: config.providerTimeoutMs }));
      }
      if (oauth.google) providers.set('google', new GoogleOAuthProvider({ ...oauth.google, issuer: oauth.googleIssuer, timeoutMs: config.providerTimeoutMs }));
      return providers;
    });
    const common = (get: Getter) => ({
      users: get(TOKENS.UserRepository),
      identities: get(IDENTITY_TOKENS.IdentityRepository),
      flows: get(IDENTITY_TOKENS.LoginFlowStore),
      clock: get(TOKENS.Clock),
    });
    provide(c, OAuthLoginUseCase, (get) =>
      new OAuthLoginUseCase({
        ...common(get),
        providers: get(IDENTITY_TOKENS.OAuthProviders),
        enforcement: c.isBound(IDENTITY_TOKENS.SsoEnforcement) ? get(IDENTITY_TOKENS.SsoEnforcement) : undefined,
      }),
    );
    provide(c, ExchangeLoginCodeUseCase, (get) =>
      new ExchangeLoginCodeUseCase({
        ...common(get),
        refreshTokens: get(TOKENS.RefreshTokenRepository),
        tokens: get(TOKENS.TokenService),
        adminEmails: get(TOKENS.Config).adminEmails,
      }),
    );
    provide(c, IdentitiesUseCase, (get) => new IdentitiesUseCase(common(get)));
  },
  routers: (c) => [
    oauthRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      addressLimit: resolve(c, TOKENS.AddressLimitMiddleware),
      oauth: resolve(c, OAuthLoginUseCase),
      exchange: resolve(c, ExchangeLoginCodeUseCase),
      identities: resolve(c, IdentitiesUseCase),
      urls: externalLoginUrls({ publicBaseUrl: resolve(c, TOKENS.Config).publicBaseUrl, oauthSuccessUrl: resolve(c, TOKENS.Config).oauth.successUrl }),
    }),
  ],
};
