import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { InstallationView } from '../../plugins/domain/installation';
import type { PluginRepository } from '../../plugins/ports/plugin-repository.port';
import type { InstallPluginUseCase } from '../../plugins/use-cases/install-plugin.use-case';
import type { Actor } from '../../shared/actor';
import { ConflictError } from '../../shared/errors';
import { str, uuidField, validate } from '../../shared/validation';
import { isSemver } from '../domain/versions';
import type { MarketplaceInstallationRepository } from '../ports/marketplace-installation-repository.port';
import { chooseVersion, fetchPackage, importKey, type PackageFetchDeps } from './package-fetch';

const schema = yup.object({
  marketplacePluginId: uuidField('marketplacePluginId').required('marketplacePluginId is required'),
  version: str().max(100).test('semver', 'version must be a SemVer version such as 1.2.0', (v) => v === undefined || isSemver(v)),
  settings: yup.mixed(),
});

export type MarketplaceInstallationView = InstallationView & { marketplace: { pluginId: string; version: string; isPaid: boolean } };

/**
 * `POST /api/applications/:appId/plugins { marketplacePluginId, version?, settings? }`: picks the version
 * (the one asked for, else the newest compatible release), downloads and verifies its package, keeps a
 * private copy of it for this application and installs that through the plugins area's install use case.
 */
export class InstallFromMarketplaceUseCase {
  constructor(
    private readonly deps: PackageFetchDeps & {
      applications: ApplicationRepository;
      plugins: PluginRepository;
      install: Pick<InstallPluginUseCase, 'execute'>;
      links: MarketplaceInstallationRepository;
    },
  ) {}

  async execute(appId: unknown, input: unknown, actor: Actor): Promise<MarketplaceInstallationView> {
    const body = await validate(schema, input);
    const application = await findOwnedApplication(this.deps.applications, appId, actor, 'manage');
    if (await this.deps.links.findByItem(application.id, body.marketplacePluginId)) {
      throw new ConflictError('This marketplace plugin is already installed in the application; upgrade it instead');
    }
    const { item, version } = await chooseVersion(this.deps, body.marketplacePluginId, body.version);
    const pkg = await fetchPackage(this.deps, item, version);
    const local = await this.deps.plugins.saveImported({ ownerId: actor.userId, key: importKey(item.id, application.id), manifest: pkg.manifest, source: pkg.source });
    const installed = await this.deps.install.execute(application.id, { pluginId: local.id, ...(body.settings !== undefined ? { settings: body.settings } : {}) }, actor);
    await this.deps.links.link({ installationId: installed.id, marketplacePluginId: item.id, version: version.version, isPaid: item.isPaid });
    return { ...installed, marketplace: { pluginId: item.id, version: version.version, isPaid: item.isPaid } };
  }
}
