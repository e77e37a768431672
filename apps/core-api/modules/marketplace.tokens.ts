import type { TypeOrmMarketplaceInstallationRepository } from '../../../adapters/persistence/marketplace/type-orm-marketplace-installation.repository';
import type { MarketplaceCatalog } from '../../../core/marketplace/ports/marketplace-catalog.port';
import type { PackageDownloader } from '../../../core/marketplace/ports/package-downloader.port';
import type { PaidLicenses } from '../../../core/marketplace/use-cases/paid-licenses';
import { token } from '../../shared/tokens';

export const MARKETPLACE_TOKENS = {
  Catalog: token<MarketplaceCatalog>('MarketplaceCatalog'),
  Downloader: token<PackageDownloader>('MarketplacePackageDownloader'),
  Installations: token<TypeOrmMarketplaceInstallationRepository>('MarketplaceInstallationRepository'),
  Licenses: token<PaidLicenses>('MarketplacePaidLicenses'),
  /** The platform version compatibility bounds are checked against (package.json's; tests may bind another). */
  PlatformVersion: token<string>('MarketplacePlatformVersion'),
} as const;
