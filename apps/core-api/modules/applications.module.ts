import type { Container } from 'inversify';
import { applicationsRouter } from '../../../adapters/http/applications/applications.router';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { CreateApplicationUseCase } from '../../../core/applications/use-cases/create-application.use-case';
import { CustomizeThemeUseCase } from '../../../core/applications/use-cases/customize-theme.use-case';
import { DeleteApplicationUseCase } from '../../../core/applications/use-cases/delete-application.use-case';
import { GetApplicationUseCase } from '../../../core/applications/use-cases/get-application.use-case';
import { ListApplicationsUseCase } from '../../../core/applications/use-cases/list-applications.use-case';
import { SelectThemeUseCase } from '../../../core/applications/use-cases/select-theme.use-case';
import { TransferApplicationUseCase } from '../../../core/applications/use-cases/transfer-application.use-case';
import { UpdateApplicationUseCase } from '../../../core/applications/use-cases/update-application.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { GUARD_TOKENS } from '../../shared/modules/guard.tokens';
import { eventDeps } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { storedFilesCleanup } from './stored-files';
import { ApplicationThemes } from '../../../core/themes/use-cases/application-themes';
import { ThemeCatalog } from '../../../core/themes/use-cases/theme-catalog';
import { CachedApplicationRepository } from '../../../adapters/cache/cached-repositories';
import { TEAM_TOKENS } from './teams.tokens';


/** Applications (SPEC 4.2). */
export const applicationsModule: AppModule = {
  name: 'applications',
  bind(c: Container) {
    provide(c, TOKENS.ApplicationRepository, (get) => new CachedApplicationRepository(new TypeOrmApplicationRepository(get(TOKENS.DataSource)), get(TOKENS.Cache)));
    const deps = (get: Getter) => ({ applications: get(TOKENS.ApplicationRepository) });
    provide(c, CreateApplicationUseCase, (get) =>
      new CreateApplicationUseCase({
        ...deps(get),
        ...eventDeps(c, get),
        // The quota checked is that of the owner the application will have (a team's Owner in a team).
        guard: c.isBound(GUARD_TOKENS.ApplicationQuotaGuard) ? get(GUARD_TOKENS.ApplicationQuotaGuard) : undefined,
        // Without the teams area, no team exists to create in (a teamId is a 404).
        teams: c.isBound(TEAM_TOKENS.TeamRepository) ? get(TEAM_TOKENS.TeamRepository) : undefined,
      }),
    );
    provide(c, ListApplicationsUseCase, (get) => new ListApplicationsUseCase(deps(get)));
    provide(c, GetApplicationUseCase, (get) => new GetApplicationUseCase(deps(get)));
    provide(c, UpdateApplicationUseCase, (get) => new UpdateApplicationUseCase(deps(get)));
    provide(c, DeleteApplicationUseCase, (get) => new DeleteApplicationUseCase({ ...deps(get), ...eventDeps(c, get), storedFiles: storedFilesCleanup(c, get) }));
    // ThemeCatalog and ApplicationThemes come from the themes module.
    provide(c, SelectThemeUseCase, (get) => new SelectThemeUseCase({ ...deps(get), catalog: get(ThemeCatalog) }));
    provide(c, CustomizeThemeUseCase, (get) => new CustomizeThemeUseCase({ ...deps(get), themes: get(ApplicationThemes) }));
    // The teams module binds the team repository; moving applications needs it.
    // The quota checked is the team Owner's, as for a creation in the team.
    provide(c, TransferApplicationUseCase, (get) =>
      new TransferApplicationUseCase({
        ...deps(get),
        teams: get(TEAM_TOKENS.TeamRepository),
        guard: c.isBound(GUARD_TOKENS.ApplicationQuotaGuard) ? get(GUARD_TOKENS.ApplicationQuotaGuard) : undefined,
        // The team's Owner is read under the team's lock in the move's transaction.
        unitOfWork: eventDeps(c, get).unitOfWork,
      }),
    );
  },
  routers: (c) => [
    applicationsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateApplicationUseCase),
      list: resolve(c, ListApplicationsUseCase),
      get: resolve(c, GetApplicationUseCase),
      update: resolve(c, UpdateApplicationUseCase),
      remove: resolve(c, DeleteApplicationUseCase),
      selectTheme: resolve(c, SelectThemeUseCase),
      customizeTheme: resolve(c, CustomizeThemeUseCase),
      transfer: c.isBound(TEAM_TOKENS.TeamRepository) ? resolve(c, TransferApplicationUseCase) : undefined,
    }),
  ],
};
