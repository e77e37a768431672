import type { TeamRepository } from '../../../core/teams/ports/team-repository.port';
import { TEAM_TOKENS } from './teams.tokens';
import type { Container } from 'inversify';
import type { Context, Next } from 'koa';
import { join } from 'node:path';
import { authRouter } from '../../../adapters/http/auth/auth.router';
import { bearerAuth } from '../../../adapters/http/shared/auth.middleware';
import { usersRouter } from '../../../adapters/http/users/users.router';
import { OutboxMailer } from '../../../adapters/mail/outbox.mailer';
import { SmtpMailer } from '../../../adapters/mail/smtp.mailer';
import { TypeOrmPasswordResetRepository } from '../../../adapters/persistence/auth/type-orm-password-reset.repository';
import { TypeOrmRefreshTokenRepository } from '../../../adapters/persistence/auth/type-orm-refresh-token.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import { AuthenticateUseCase } from '../../../core/auth/use-cases/authenticate.use-case';
import { ChangePasswordUseCase } from '../../../core/auth/use-cases/change-password.use-case';
import { ConfirmPasswordResetUseCase } from '../../../core/auth/use-cases/confirm-password-reset.use-case';
import { LoginUseCase } from '../../../core/auth/use-cases/login.use-case';
import { RefreshSessionUseCase } from '../../../core/auth/use-cases/refresh-session.use-case';
import { RegisterUseCase } from '../../../core/auth/use-cases/register.use-case';
import { CompleteSetupUseCase, IssueSetupLinkUseCase } from '../../../core/auth/use-cases/platform-setup.use-cases';
import { TypeOrmPlatformSetupRepository } from '../../../adapters/persistence/auth/type-orm-platform-setup.repository';
import { SignOutUseCase } from '../../../core/auth/use-cases/sign-out.use-case';
import { RequestPasswordResetUseCase } from '../../../core/auth/use-cases/request-password-reset.use-case';
import { RateLimitedError } from '../../../core/shared/errors';
import { DeleteAccountUseCase } from '../../../core/users/use-cases/delete-account.use-case';
import { GetCurrentUserUseCase } from '../../../core/users/use-cases/get-current-user.use-case';
import { UpdateProfileUseCase } from '../../../core/users/use-cases/update-profile.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { consoleBaseUrl } from '../../shared/config';
import { TOKENS, resolve } from '../../shared/tokens';
import { SETUP_TOKENS } from './accounts.tokens';
import { BRANDING_TOKENS } from './branding.tokens';
import { IDENTITY_TOKENS } from './identities.tokens';
import { listOAuthProviders } from '../../../core/auth/use-cases/oauth-login.use-case';
import { storedFilesCleanup } from './stored-files';
import { CachedUserRepository } from '../../../adapters/cache/cached-repositories';

/** Users, authentication and sessions (SPEC 4.1, 5). */
export const accountsModule: AppModule = {
  name: 'accounts',
  bind(c: Container) {
    const ds = (get: Getter) => get(TOKENS.DataSource);
    provide(c, TOKENS.UserRepository, (get) => new CachedUserRepository(new TypeOrmUserRepository(ds(get)), get(TOKENS.Cache)));
    provide(c, TOKENS.RefreshTokenRepository, (get) => new TypeOrmRefreshTokenRepository(ds(get)));
    provide(c, TOKENS.PasswordResetRepository, (get) => new TypeOrmPasswordResetRepository(ds(get)));
    provide(c, TOKENS.Mailer, (get) => {
      const config = get(TOKENS.Config);
      return config.smtpUrl ? new SmtpMailer(config.smtpUrl) : new OutboxMailer(join(config.dataDir, 'outbox'));
    });

    const session = (get: Getter) => ({
      refreshTokens: get(TOKENS.RefreshTokenRepository),
      tokens: get(TOKENS.TokenService),
      clock: get(TOKENS.Clock),
      adminEmails: get(TOKENS.Config).adminEmails,
      users: get(TOKENS.UserRepository),
      hasher: get(TOKENS.PasswordHasher),
    });
    provide(c, RegisterUseCase, (get) => new RegisterUseCase(session(get)));
    provide(c, SETUP_TOKENS.PlatformSetupRepository, (get) => new TypeOrmPlatformSetupRepository(ds(get)));
    provide(c, TOKENS.PendingSetupLink, () => ({ link: null }));
    const setupDeps = (get: Getter) => ({ ...session(get), setup: get(SETUP_TOKENS.PlatformSetupRepository), keyHasher: get(TOKENS.KeyHasher) });
    provide(c, IssueSetupLinkUseCase, (get) => new IssueSetupLinkUseCase(setupDeps(get)));
    provide(c, CompleteSetupUseCase, (get) => new CompleteSetupUseCase(setupDeps(get)));
    provide(c, LoginUseCase, (get) =>
      new LoginUseCase({
        ...session(get),
        limiter: get(TOKENS.RateLimiter),
        enforcement: c.isBound(IDENTITY_TOKENS.SsoEnforcement) ? get(IDENTITY_TOKENS.SsoEnforcement) : undefined,
      }),
    );
    provide(c, RefreshSessionUseCase, (get) => new RefreshSessionUseCase(session(get)));
    provide(c, SignOutUseCase, (get) => new SignOutUseCase(session(get)));
    provide(c, AuthenticateUseCase, (get) => new AuthenticateUseCase(session(get)));
    provide(c, ChangePasswordUseCase, (get) => new ChangePasswordUseCase(session(get)));
    const resetDeps = (get: Getter) => ({
      ...session(get),
      resets: get(TOKENS.PasswordResetRepository),
      keyHasher: get(TOKENS.KeyHasher),
      mailer: get(TOKENS.Mailer),
      consoleUrl: consoleBaseUrl(get(TOKENS.Config)),
    });
    provide(c, RequestPasswordResetUseCase, (get) =>
      new RequestPasswordResetUseCase({ ...resetDeps(get), branding: c.isBound(BRANDING_TOKENS.MailBranding) ? get(BRANDING_TOKENS.MailBranding) : undefined }),
    );
    provide(c, ConfirmPasswordResetUseCase, (get) => new ConfirmPasswordResetUseCase(resetDeps(get)));
    provide(c, GetCurrentUserUseCase, (get) => new GetCurrentUserUseCase(session(get)));
    provide(c, UpdateProfileUseCase, (get) => new UpdateProfileUseCase(session(get)));
    provide(c, DeleteAccountUseCase, (get) => new DeleteAccountUseCase({
        ...session(get),
        storedFiles: storedFilesCleanup(c, get),
        ownedTeams: c.isBound(TEAM_TOKENS.TeamRepository)
          ? ((teams: TeamRepository) => async (userId: string) => (await teams.listForUser(userId)).filter((t) => t.role === 'owner').length)(get(TEAM_TOKENS.TeamRepository))
          : undefined,
      }));

    provide(c, TOKENS.AuthMiddleware, (get) => bearerAuth(get(AuthenticateUseCase)));
    provide(c, TOKENS.AddressLimitMiddleware, (get) => {
      const limiter = get(TOKENS.RateLimiter);
      // Per client address, on register, login, refresh and reset: slows down credential stuffing.
      const rule = { limit: get(TOKENS.Config).authRateLimitPerMinute, windowSeconds: 60 };
      return async (ctx: Context, next: Next) => {
        const decision = await limiter.consume(`auth-address:${ctx.ip}`, rule);
        if (!decision.allowed) throw new RateLimitedError('Too many requests from this address; slow down', decision.retryAfterSeconds);
        await next();
      };
    });
  },
  /** A fresh install's setup link: issued at every start while the platform has no admin, printed by `announce`. */
  async start(c: Container) {
    resolve(c, TOKENS.PendingSetupLink).link = await resolve(c, IssueSetupLinkUseCase).execute();
  },
  routers: (c) => [
    authRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      addressLimit: resolve(c, TOKENS.AddressLimitMiddleware),
      register: resolve(c, RegisterUseCase),
      setup: resolve(c, CompleteSetupUseCase),
      login: resolve(c, LoginUseCase),
      refresh: resolve(c, RefreshSessionUseCase),
      signOut: resolve(c, SignOutUseCase),
      me: resolve(c, GetCurrentUserUseCase),
      changePassword: resolve(c, ChangePasswordUseCase),
      requestReset: resolve(c, RequestPasswordResetUseCase),
      confirmReset: resolve(c, ConfirmPasswordResetUseCase),
      oauthProviders: c.isBound(IDENTITY_TOKENS.OAuthProviders) ? () => listOAuthProviders(resolve(c, IDENTITY_TOKENS.OAuthProviders)) : () => [],
    }),
    usersRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      me: resolve(c, GetCurrentUserUseCase),
      update: resolve(c, UpdateProfileUseCase),
      remove: resolve(c, DeleteAccountUseCase),
    }),
  ],
};
