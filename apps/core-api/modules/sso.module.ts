import type { Container } from 'inversify';
import { externalLoginUrls } from '../../../adapters/http/auth/oauth.router';
import { samlFormBody } from '../../../adapters/http/sso/saml-form.middleware';
import { ssoRouter } from '../../../adapters/http/sso/sso.router';
import { guardedFetch } from '../../../adapters/identity/guarded-fetch';
import { NodeSamlClient } from '../../../adapters/identity/node-saml.saml-client';
import { OpenIdOidcClient } from '../../../adapters/identity/openid.oidc-client';
import { TypeOrmSsoConfigRepository } from '../../../adapters/persistence/sso/type-orm-sso-config.repository';
import { ManageSsoConfigUseCase } from '../../../core/sso/use-cases/manage-sso-config.use-case';
import { SsoLoginUseCase } from '../../../core/sso/use-cases/sso-login.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { IDENTITY_TOKENS } from './identities.tokens';
import { TEAM_TOKENS } from './teams.tokens';
import { SSO_TOKENS } from './sso.tokens';

/**
 * Single sign-on per team (OIDC and SAML): the connection's settings, the sign-in with provisioning, and the
 * enforcement password and OAuth logins consult. Needs the identities and teams modules.
 */
export const ssoModule: AppModule = {
  name: 'sso',
  bind(c: Container) {
    const config = (get: Getter) => get(TOKENS.Config);
    provide(c, SSO_TOKENS.Configs, (get) => new TypeOrmSsoConfigRepository(get(TOKENS.DataSource)));
    // The teams module's repository: memberships and roles.
    provide(c, SSO_TOKENS.Teams, (get) => get(TEAM_TOKENS.TeamRepository));
    provide(c, SSO_TOKENS.OidcClient, (get) =>
      new OpenIdOidcClient({
        fetch: guardedFetch({ allowHttp: config(get).sso.allowHttp, allowedPrivateCidrs: config(get).sso.allowedPrivateCidrs }) as never,
        timeoutMs: config(get).providerTimeoutMs,
      }),
    );
    provide(c, SSO_TOKENS.SamlClient, () => new NodeSamlClient());
    provide(c, IDENTITY_TOKENS.SsoEnforcement, (get) => get(SSO_TOKENS.Configs));
    provide(c, ManageSsoConfigUseCase, (get) =>
      new ManageSsoConfigUseCase({
        teams: get(SSO_TOKENS.Teams),
        configs: get(SSO_TOKENS.Configs),
        box: get(TOKENS.SecretBox),
        saml: get(SSO_TOKENS.SamlClient),
        allowHttp: config(get).sso.allowHttp,
      }),
    );
    provide(c, SsoLoginUseCase, (get) =>
      new SsoLoginUseCase({
        users: get(TOKENS.UserRepository),
        identities: get(IDENTITY_TOKENS.IdentityRepository),
        flows: get(IDENTITY_TOKENS.LoginFlowStore),
        clock: get(TOKENS.Clock),
        teams: get(SSO_TOKENS.Teams),
        configs: get(SSO_TOKENS.Configs),
        box: get(TOKENS.SecretBox),
        oidc: get(SSO_TOKENS.OidcClient),
        saml: get(SSO_TOKENS.SamlClient),
      }),
    );
  },
  middleware: () => [samlFormBody()],
  routers: (c) => [
    ssoRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      addressLimit: resolve(c, TOKENS.AddressLimitMiddleware),
      manage: resolve(c, ManageSsoConfigUseCase),
      login: resolve(c, SsoLoginUseCase),
      urls: externalLoginUrls({ publicBaseUrl: resolve(c, TOKENS.Config).publicBaseUrl, oauthSuccessUrl: resolve(c, TOKENS.Config).oauth.successUrl }),
    }),
  ],
};
