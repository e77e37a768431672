import type { CatalogRepository, LicenseRepository, ReviewRepository } from '../../../core/marketplace/ports/marketplace-repository.port';
import type { PluginPackageReader } from '../../../core/plugins/ports/plugin-package-reader.port';
import { token } from '../../shared/tokens';

export const MARKETPLACE_TOKENS = {
  Catalog: token<CatalogRepository>('MarketplaceCatalogRepository'),
  Reviews: token<ReviewRepository>('MarketplaceReviewRepository'),
  Licenses: token<LicenseRepository>('MarketplaceLicenseRepository'),
  Packages: token<PluginPackageReader>('MarketplacePluginPackageReader'),
  PlatformVersion: token<string>('MarketplacePlatformVersion'),
} as const;
