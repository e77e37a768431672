import { Cron } from 'croner';
import type { Container } from 'inversify';
import { CatalogMarketplaceLicenses } from '../../../adapters/clients/catalog.marketplace-licenses';
import { HttpMarketplaceCatalog } from '../../../adapters/clients/http-marketplace-catalog';
import { NullMarketplaceCatalog } from '../../../adapters/clients/null-marketplace-catalog';
import { SsrfSafePackageDownloader } from '../../../adapters/clients/ssrf-safe.package-downloader';
import { adminMarketplaceRouter, marketplaceRouters } from '../../../adapters/http/marketplace/core-marketplace.router';
import { TypeOrmRunClaims } from '../../../adapters/persistence/domains/type-orm-run-claims';
import { TypeOrmMarketplaceInstallationRepository } from '../../../adapters/persistence/marketplace/type-orm-marketplace-installation.repository';
import { ForwardMarketplaceRequestUseCase } from '../../../core/marketplace/use-cases/forward-marketplace-request.use-case';
import { InstallFromMarketplaceUseCase } from '../../../core/marketplace/use-cases/install-from-marketplace.use-case';
import { InstallMarketplaceThemeUseCase } from '../../../core/marketplace/use-cases/install-marketplace-theme.use-case';
import { LicenseActivationGate, RevalidateLicensesUseCase } from '../../../core/marketplace/use-cases/license-checks';
import { ListMyMarketplaceLicensesUseCase } from '../../../core/marketplace/use-cases/list-my-marketplace-licenses.use-case';
import { MarketplaceAdminOverviewUseCase } from '../../../core/marketplace/use-cases/marketplace-admin.use-case';
import type { PackageFetchDeps } from '../../../core/marketplace/use-cases/package-fetch';
import { PaidLicenses } from '../../../core/marketplace/use-cases/paid-licenses';
import { CheckMarketplaceUpdatesUseCase, ListMarketplaceUpdatesUseCase, MarkUpdatedUseCase } from '../../../core/marketplace/use-cases/updates';
import { UpgradeMarketplacePluginUseCase } from '../../../core/marketplace/use-cases/upgrade-marketplace-plugin.use-case';
import { ActivatePluginUseCase } from '../../../core/plugins/use-cases/activate-plugin.use-case';
import { YauzlPluginPackageReader } from '../../../adapters/plugins/yauzl.plugin-package-reader';
import { DeactivatePluginUseCase } from '../../../core/plugins/use-cases/deactivate-plugin.use-case';
import { InstallPluginUseCase } from '../../../core/plugins/use-cases/install-plugin.use-case';
import { CreateThemeUseCase } from '../../../core/themes/use-cases/create-theme.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { PLATFORM_VERSION } from '../../shared/version';
import { BILLING_TOKENS } from './billing.tokens';
import { PLUGIN_TOKENS } from './plugins.tokens';
import { MARKETPLACE_TOKENS } from './marketplace.tokens';

export interface MarketplaceModuleOptions {
  /** How often activated paid installations are re-validated (default 15 minutes). */
  revalidateEveryMs?: number;
  /** Start the background jobs (default true; tests run the use cases themselves). */
  background?: boolean;
  /** How long a marketplace call may take before it counts as down (default 5 s). */
  timeoutMs?: number;
}

/**
 * The core API's side of the marketplace (SPEC 4.9; EXTENSIONS.md "Marketplace"): `/api/marketplace/*`
 * through the `MarketplaceCatalog` port (HTTP to MARKETPLACE_URL, or the null catalog when it is empty),
 * installs and upgrades from the marketplace through the plugins area, the daily update check (once
 * across instances), and paid licenses (activation gate, 5-minute answers, 72-hour grace, re-validation).
 * Needs the plugins and themes modules.
 */
export function marketplaceModule(options: MarketplaceModuleOptions = {}): AppModule {
  return {
    name: 'marketplace',
    bind(c: Container) {
      // Billing sells paid items through Checkout: their prices and licenses come from this catalog.
      if (c.isBound(BILLING_TOKENS.MarketplaceLicenses)) {
        void c
          .rebind(BILLING_TOKENS.MarketplaceLicenses)
          .toDynamicValue((ctx) => new CatalogMarketplaceLicenses(ctx.get(MARKETPLACE_TOKENS.Catalog)))
          .inSingletonScope();
      }
      if (!c.isBound(MARKETPLACE_TOKENS.Catalog)) {
        provide(c, MARKETPLACE_TOKENS.Catalog, (get) => {
          const config = get(TOKENS.Config);
          return config.marketplaceUrl
            ? new HttpMarketplaceCatalog({ baseUrl: config.marketplaceUrl, token: config.marketplaceToken, clock: get(TOKENS.Clock), timeoutMs: options.timeoutMs })
            : new NullMarketplaceCatalog();
        });
      }
      if (!c.isBound(MARKETPLACE_TOKENS.Downloader)) {
        provide(c, MARKETPLACE_TOKENS.Downloader, (get) => {
          const config = get(TOKENS.Config);
          return new SsrfSafePackageDownloader({ marketplaceUrl: config.marketplaceUrl, marketplaceToken: config.marketplaceToken });
        });
      }
      if (!c.isBound(MARKETPLACE_TOKENS.PlatformVersion)) c.bind(MARKETPLACE_TOKENS.PlatformVersion).toConstantValue(PLATFORM_VERSION);
      provide(c, MARKETPLACE_TOKENS.Installations, (get) => new TypeOrmMarketplaceInstallationRepository(get(TOKENS.DataSource)));
      provide(c, MARKETPLACE_TOKENS.Licenses, (get) =>
        new PaidLicenses({
          catalog: get(MARKETPLACE_TOKENS.Catalog),
          links: get(MARKETPLACE_TOKENS.Installations),
          checks: get(MARKETPLACE_TOKENS.Installations),
          cache: get(TOKENS.Cache),
          clock: get(TOKENS.Clock),
        }),
      );
      const fetchDeps = (get: Getter): PackageFetchDeps => ({
        catalog: get(MARKETPLACE_TOKENS.Catalog),
        downloader: get(MARKETPLACE_TOKENS.Downloader),
        packages: new YauzlPluginPackageReader(),
        platformVersion: get(MARKETPLACE_TOKENS.PlatformVersion),
      });
      provide(c, ForwardMarketplaceRequestUseCase, (get) => new ForwardMarketplaceRequestUseCase({ catalog: get(MARKETPLACE_TOKENS.Catalog) }));
      provide(c, InstallFromMarketplaceUseCase, (get) =>
        new InstallFromMarketplaceUseCase({
          ...fetchDeps(get),
          applications: get(TOKENS.ApplicationRepository),
          plugins: get(PLUGIN_TOKENS.PluginRepository),
          install: get(InstallPluginUseCase),
          links: get(MARKETPLACE_TOKENS.Installations),
        }),
      );
      c.bind(PLUGIN_TOKENS.MarketplaceInstaller).toDynamicValue(() => resolve(c, InstallFromMarketplaceUseCase)).inSingletonScope();
      c.bind(PLUGIN_TOKENS.ActivationGate)
        .toDynamicValue(() => new LicenseActivationGate({ links: resolve(c, MARKETPLACE_TOKENS.Installations), licenses: resolve(c, MARKETPLACE_TOKENS.Licenses) }))
        .inSingletonScope();
      provide(c, UpgradeMarketplacePluginUseCase, (get) =>
        new UpgradeMarketplacePluginUseCase({
          ...fetchDeps(get),
          links: get(MARKETPLACE_TOKENS.Installations),
          plugins: get(PLUGIN_TOKENS.PluginRepository),
          installations: get(PLUGIN_TOKENS.InstallationRepository),
          secretBox: get(TOKENS.SecretBox),
          runtime: get(PLUGIN_TOKENS.Runtime),
          cache: get(TOKENS.Cache),
          activate: get(ActivatePluginUseCase),
          deactivate: get(DeactivatePluginUseCase),
        }),
      );
      provide(c, ListMarketplaceUpdatesUseCase, (get) => new ListMarketplaceUpdatesUseCase({ links: get(MARKETPLACE_TOKENS.Installations) }));
      provide(c, MarkUpdatedUseCase, (get) => new MarkUpdatedUseCase({ links: get(MARKETPLACE_TOKENS.Installations) }));
      provide(c, CheckMarketplaceUpdatesUseCase, (get) =>
        new CheckMarketplaceUpdatesUseCase({
          catalog: get(MARKETPLACE_TOKENS.Catalog),
          links: get(MARKETPLACE_TOKENS.Installations),
          claims: new TypeOrmRunClaims(get(TOKENS.DataSource)),
          clock: get(TOKENS.Clock),
          platformVersion: get(MARKETPLACE_TOKENS.PlatformVersion),
        }),
      );
      provide(c, RevalidateLicensesUseCase, (get) =>
        new RevalidateLicensesUseCase({
          links: get(MARKETPLACE_TOKENS.Installations),
          licenses: get(MARKETPLACE_TOKENS.Licenses),
          installations: get(PLUGIN_TOKENS.InstallationRepository),
          runtime: get(PLUGIN_TOKENS.Runtime),
        }),
      );
      provide(c, InstallMarketplaceThemeUseCase, (get) => new InstallMarketplaceThemeUseCase({ catalog: get(MARKETPLACE_TOKENS.Catalog), createTheme: get(CreateThemeUseCase) }));
      provide(c, ListMyMarketplaceLicensesUseCase, (get) => new ListMyMarketplaceLicensesUseCase({ catalog: get(MARKETPLACE_TOKENS.Catalog), links: get(MARKETPLACE_TOKENS.Installations) }));
      provide(c, MarketplaceAdminOverviewUseCase, (get) => new MarketplaceAdminOverviewUseCase({ catalog: get(MARKETPLACE_TOKENS.Catalog) }));
    },
    routers: (c) => [
      ...marketplaceRouters({
        auth: resolve(c, TOKENS.AuthMiddleware),
        forward: resolve(c, ForwardMarketplaceRequestUseCase),
        updates: resolve(c, ListMarketplaceUpdatesUseCase),
        markUpdated: resolve(c, MarkUpdatedUseCase),
        upgrade: resolve(c, UpgradeMarketplacePluginUseCase),
        installTheme: resolve(c, InstallMarketplaceThemeUseCase),
        myLicenses: resolve(c, ListMyMarketplaceLicensesUseCase),
      }),
      adminMarketplaceRouter({ auth: resolve(c, TOKENS.AuthMiddleware), overview: resolve(c, MarketplaceAdminOverviewUseCase) }),
    ],
    /**
     * The update check: every hour each instance tries to claim today's run (`scheduled_runs`); the first
     * claim of the UTC day runs it. License re-validation: every 15 minutes on each instance (answers are
     * shared for 5 minutes, and a deactivation is a conditional move, so instances do not repeat it).
     */
    async start(c: Container) {
      if (options.background === false) return;
      const logger = resolve(c, TOKENS.Logger);
      const updates = resolve(c, CheckMarketplaceUpdatesUseCase);
      const revalidate = resolve(c, RevalidateLicensesUseCase);
      const daily = new Cron('23 * * * *', { timezone: 'UTC', protect: true, unref: true }, () =>
        updates.execute().then(
          (r) => {
            if (r.ran) logger.info({ checked: r.checked, found: r.found }, 'marketplace: update check done');
          },
          (error: unknown) => logger.warn({ err: { message: (error as Error).message } }, 'marketplace: update check failed'),
        ),
      );
      const every = options.revalidateEveryMs ?? 15 * 60 * 1000;
      const timer = setInterval(() => {
        revalidate.execute().then(
          (r) => {
            if (r.deactivated) logger.warn({ deactivated: r.deactivated }, 'marketplace: paid installations deactivated');
          },
          (error: unknown) => logger.warn({ err: { message: (error as Error).message } }, 'marketplace: license re-validation failed'),
        );
      }, every);
      timer.unref();
      return async () => {
        daily.stop();
        clearInterval(timer);
      };
    },
  };
}
