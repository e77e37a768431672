import { composeApp, type ComposedApp } from '../shared/compose';
import type { Infrastructure } from '../shared/infrastructure';
import { healthModule } from '../shared/modules/health.module';
import { infrastructureModule } from '../shared/modules/infrastructure.module';

/** The marketplace catalog service ({marketplace_url}); the catalog itself arrives with the marketplace issue. */
export function createMarketplace(infra: Infrastructure): Promise<ComposedApp> {
  return composeApp('marketplace', infra, [infrastructureModule(infra), healthModule('marketplace', 'marketplace')]);
}
