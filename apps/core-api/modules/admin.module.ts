import type { Container } from 'inversify';
import { adminUsersRouter } from '../../../adapters/http/admin/admin-users.router';
import { TypeOrmUserDirectory } from '../../../adapters/persistence/admin/type-orm-user-directory';
import { ChangeUserRoleUseCase, ListUsersUseCase, SetUserDisabledUseCase, type AdminUsersDeps } from '../../../core/admin/use-cases/admin-users.use-cases';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { ADMIN_TOKENS } from './admin.tokens';

/** The admin console's accounts: list, role change, disable (admin only, audited by the audit middleware). */
export const adminModule: AppModule = {
  name: 'admin',
  bind(c: Container) {
    provide(c, ADMIN_TOKENS.UserDirectory, (get) => new TypeOrmUserDirectory(get(TOKENS.DataSource)));
    const deps = (get: Getter): AdminUsersDeps => ({
      directory: get(ADMIN_TOKENS.UserDirectory),
      users: get(TOKENS.UserRepository),
      refreshTokens: get(TOKENS.RefreshTokenRepository),
      clock: get(TOKENS.Clock),
      adminEmails: get(TOKENS.Config).adminEmails,
    });
    provide(c, ListUsersUseCase, (get) => new ListUsersUseCase(deps(get)));
    provide(c, ChangeUserRoleUseCase, (get) => new ChangeUserRoleUseCase(deps(get)));
    provide(c, SetUserDisabledUseCase, (get) => new SetUserDisabledUseCase(deps(get)));
  },
  routers: (c) => [
    adminUsersRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      list: resolve(c, ListUsersUseCase),
      changeRole: resolve(c, ChangeUserRoleUseCase),
      setDisabled: resolve(c, SetUserDisabledUseCase),
    }),
  ],
};
