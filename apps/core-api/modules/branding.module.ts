import type { Container } from 'inversify';
import { CssTreeStylesheetSanitizer } from '../../../adapters/css/css-tree.stylesheet-sanitizer';
import { brandingRouter } from '../../../adapters/http/branding/branding.router';
import { TypeOrmBrandingRepository } from '../../../adapters/persistence/branding/type-orm-branding.repository';
import { SubscriptionPlanFeatures } from '../../../core/billing/use-cases/plan-features';
import { ApplicationMailBranding } from '../../../core/branding/use-cases/application-mail-branding';
import { BrandingPresentation } from '../../../core/branding/use-cases/branding-presentation';
import { GetBrandingUseCase } from '../../../core/branding/use-cases/get-branding.use-case';
import { UpdateBrandingUseCase } from '../../../core/branding/use-cases/update-branding.use-case';
import { provide, type AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { THEME_TOKENS } from './themes.tokens';
import { BRANDING_TOKENS } from './branding.tokens';
import { planDeps } from './plan-deps';

/**
 * Branding (SPEC 2.11; EXTENSIONS.md "Branding"): per-application colours, fonts, widget settings,
 * e-mail branding, custom CSS and the attribution line. Needs the billing and themes modules; binds
 * the themes' layer so every resolved theme carries the branding.
 */
export const brandingModule: AppModule = {
  name: 'branding',
  bind(c: Container) {
    provide(c, BRANDING_TOKENS.BrandingRepository, (get) => new TypeOrmBrandingRepository(get(TOKENS.DataSource)));
    provide(c, BRANDING_TOKENS.PlanFeatures, (get) =>
      new SubscriptionPlanFeatures(planDeps(get)),
    );
    provide(c, BrandingPresentation, (get) =>
      new BrandingPresentation({ branding: get(BRANDING_TOKENS.BrandingRepository), plans: get(BRANDING_TOKENS.PlanFeatures) }),
    );
    provide(c, THEME_TOKENS.ThemeLayer, (get) => get(BrandingPresentation));
    provide(c, BRANDING_TOKENS.MailBranding, (get) =>
      new ApplicationMailBranding({ applications: get(TOKENS.ApplicationRepository), branding: get(BRANDING_TOKENS.BrandingRepository) }),
    );
    provide(c, GetBrandingUseCase, (get) =>
      new GetBrandingUseCase({ applications: get(TOKENS.ApplicationRepository), branding: get(BRANDING_TOKENS.BrandingRepository) }),
    );
    provide(c, UpdateBrandingUseCase, (get) =>
      new UpdateBrandingUseCase({
        applications: get(TOKENS.ApplicationRepository),
        branding: get(BRANDING_TOKENS.BrandingRepository),
        sanitizer: new CssTreeStylesheetSanitizer(),
        plans: get(BRANDING_TOKENS.PlanFeatures),
      }),
    );
  },
  routers: (c) => [
    brandingRouter({ auth: resolve(c, TOKENS.AuthMiddleware), get: resolve(c, GetBrandingUseCase), update: resolve(c, UpdateBrandingUseCase) }),
  ],
};
