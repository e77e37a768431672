import type { Container } from 'inversify';
import { themesRouter } from '../../../adapters/http/themes/themes.router';
import { TypeOrmThemeRepository } from '../../../adapters/persistence/themes/type-orm-theme.repository';
import { ApplicationThemes } from '../../../core/themes/use-cases/application-themes';
import { CreateThemeUseCase } from '../../../core/themes/use-cases/create-theme.use-case';
import { GetApplicationThemeCssUseCase } from '../../../core/themes/use-cases/get-application-theme-css.use-case';
import { GetThemeUseCase } from '../../../core/themes/use-cases/get-theme.use-case';
import { ListThemesUseCase } from '../../../core/themes/use-cases/list-themes.use-case';
import { ThemeCatalog } from '../../../core/themes/use-cases/theme-catalog';
import { provide, type AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { THEME_TOKENS } from './themes.tokens';

/**
 * Themes (SPEC 4.2, 4.8; EXTENSIONS.md "Themes"): presets, users' themes, and each application's
 * resolved theme (selection, customization, branding). The applications module reads ThemeCatalog and
 * ApplicationThemes from here.
 */
export const themesModule: AppModule = {
  name: 'themes',
  bind(c: Container) {
    provide(c, THEME_TOKENS.ThemeRepository, (get) => new TypeOrmThemeRepository(get(TOKENS.DataSource)));
    provide(c, ThemeCatalog, (get) => new ThemeCatalog({ themes: get(THEME_TOKENS.ThemeRepository) }));
    provide(c, ApplicationThemes, (get) =>
      new ApplicationThemes({ catalog: get(ThemeCatalog), layer: c.isBound(THEME_TOKENS.ThemeLayer) ? get(THEME_TOKENS.ThemeLayer) : undefined }),
    );
    provide(c, CreateThemeUseCase, (get) => new CreateThemeUseCase({ themes: get(THEME_TOKENS.ThemeRepository), catalog: get(ThemeCatalog) }));
    provide(c, ListThemesUseCase, (get) => new ListThemesUseCase({ themes: get(THEME_TOKENS.ThemeRepository) }));
    provide(c, GetThemeUseCase, (get) => new GetThemeUseCase({ catalog: get(ThemeCatalog) }));
    provide(c, GetApplicationThemeCssUseCase, (get) =>
      new GetApplicationThemeCssUseCase({ applications: get(TOKENS.ApplicationRepository), themes: get(ApplicationThemes) }),
    );
  },
  routers: (c) => [
    themesRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateThemeUseCase),
      list: resolve(c, ListThemesUseCase),
      get: resolve(c, GetThemeUseCase),
      css: resolve(c, GetApplicationThemeCssUseCase),
    }),
  ],
};
