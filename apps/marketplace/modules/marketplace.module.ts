import type { Container } from 'inversify';
import { marketplaceRouter } from '../../../adapters/http/marketplace/marketplace.router';
import { marketplaceAuth } from '../../../adapters/http/shared/marketplace-auth.middleware';
import { TypeOrmCatalogRepository, TypeOrmLicenseRepository, TypeOrmReviewRepository } from '../../../adapters/persistence/marketplace/type-orm-marketplace.repository';
import { YauzlPluginPackageReader } from '../../../adapters/plugins/yauzl.plugin-package-reader';
import { BrowseItemsUseCase, GetItemUseCase, ListCategoriesUseCase, ListFeaturedUseCase } from '../../../core/marketplace/use-cases/browse.use-cases';
import { LicensesUseCase, ValidateLicenseUseCase } from '../../../core/marketplace/use-cases/licenses.use-cases';
import { ListHeldLicensesUseCase } from '../../../core/marketplace/use-cases/list-held-licenses.use-case';
import {
  ListMySubmissionsUseCase,
  ListPendingUseCase,
  PendingCountsUseCase,
  ReviewSubmissionUseCase,
  SetFeaturedUseCase,
} from '../../../core/marketplace/use-cases/moderation.use-cases';
import { DeleteReviewUseCase, ListReviewsUseCase, UpsertReviewUseCase } from '../../../core/marketplace/use-cases/reviews.use-cases';
import { SubmitPluginUseCase, SubmitThemeUseCase } from '../../../core/marketplace/use-cases/submit.use-cases';
import {
  DownloadPackageUseCase,
  GetVersionUseCase,
  LatestCompatibleVersionsUseCase,
  ListVersionsUseCase,
  PublishVersionUseCase,
} from '../../../core/marketplace/use-cases/versions.use-cases';
import { provide, type AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { PLATFORM_VERSION } from '../../shared/version';
import { MARKETPLACE_TOKENS } from './marketplace.tokens';

export interface MarketplaceModuleOptions {
  /** The platform version compatibility bounds are checked against (tests); package.json's version otherwise. */
  platformVersion?: string;
}

/** The marketplace catalog: browse, reviews, versions and packages, submission and review, licenses. */
export function marketplaceModule(options: MarketplaceModuleOptions = {}): AppModule {
  return {
    name: 'marketplace',
    bind(c: Container) {
      provide(c, MARKETPLACE_TOKENS.Catalog, (get) => new TypeOrmCatalogRepository(get(TOKENS.DataSource)));
      provide(c, MARKETPLACE_TOKENS.Reviews, (get) => new TypeOrmReviewRepository(get(TOKENS.DataSource)));
      provide(c, MARKETPLACE_TOKENS.Licenses, (get) => new TypeOrmLicenseRepository(get(TOKENS.DataSource)));
      provide(c, MARKETPLACE_TOKENS.Packages, () => new YauzlPluginPackageReader());
      c.bind(MARKETPLACE_TOKENS.PlatformVersion).toConstantValue(options.platformVersion ?? PLATFORM_VERSION);
    },
    routers(c: Container) {
      const catalog = resolve(c, MARKETPLACE_TOKENS.Catalog);
      const reviews = resolve(c, MARKETPLACE_TOKENS.Reviews);
      const licenses = resolve(c, MARKETPLACE_TOKENS.Licenses);
      const packages = resolve(c, MARKETPLACE_TOKENS.Packages);
      const platformVersion = resolve(c, MARKETPLACE_TOKENS.PlatformVersion);
      const clock = resolve(c, TOKENS.Clock);
      const config = resolve(c, TOKENS.Config);
      return [
        marketplaceRouter(marketplaceAuth(config.marketplaceToken, () => clock.now()), {
          browse: new BrowseItemsUseCase({ catalog }),
          featured: new ListFeaturedUseCase({ catalog }),
          categories: new ListCategoriesUseCase({ catalog }),
          get: new GetItemUseCase({ catalog, reviews }),
          listReviews: new ListReviewsUseCase({ catalog, reviews }),
          upsertReview: new UpsertReviewUseCase({ catalog, reviews }),
          deleteReview: new DeleteReviewUseCase({ catalog, reviews }),
          listVersions: new ListVersionsUseCase({ catalog, platformVersion }),
          getVersion: new GetVersionUseCase({ catalog, platformVersion }),
          publishVersion: new PublishVersionUseCase({ catalog, packages, platformVersion }),
          download: new DownloadPackageUseCase({ catalog }),
          latest: new LatestCompatibleVersionsUseCase({ catalog, platformVersion }),
          submitPlugin: new SubmitPluginUseCase({ catalog, packages }),
          submitTheme: new SubmitThemeUseCase({ catalog }),
          pending: new ListPendingUseCase({ catalog }),
          pendingCounts: new PendingCountsUseCase({ catalog }),
          moderation: new ReviewSubmissionUseCase({ catalog, clock }),
          featuring: new SetFeaturedUseCase({ catalog }),
          mine: new ListMySubmissionsUseCase({ catalog }),
          licenses: new LicensesUseCase({ catalog, licenses, clock }),
          validateLicense: new ValidateLicenseUseCase({ catalog, licenses, clock }),
          heldLicenses: new ListHeldLicensesUseCase({ licenses }),
        }),
      ];
    },
  };
}
