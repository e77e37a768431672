import type { AppModule } from '../shared/app-module';
import { composeApp, type ComposedApp } from '../shared/compose';
import type { Infrastructure } from '../shared/infrastructure';
import { healthModule } from '../shared/modules/health.module';
import { infrastructureModule } from '../shared/modules/infrastructure.module';
import { marketplaceModule, type MarketplaceModuleOptions } from './modules/marketplace.module';

export function marketplaceModules(infra: Infrastructure, options: MarketplaceModuleOptions = {}): AppModule[] {
  return [infrastructureModule(infra), healthModule('marketplace', 'marketplace'), marketplaceModule(options)];
}

/** The marketplace catalog service ({marketplace_url}): catalog, reviews, versions, submissions, licenses. */
export function createMarketplace(infra: Infrastructure, options: MarketplaceModuleOptions = {}): Promise<ComposedApp> {
  return composeApp('marketplace', infra, marketplaceModules(infra, options));
}
