import * as yup from 'yup';
import type { InstallationView } from '../../plugins/domain/installation';
import { checkSettings } from '../../plugins/domain/settings';
import type { InstallationRepository } from '../../plugins/ports/installation-repository.port';
import type { PluginRepository } from '../../plugins/ports/plugin-repository.port';
import type { ActivatePluginUseCase } from '../../plugins/use-cases/activate-plugin.use-case';
import type { DeactivatePluginUseCase } from '../../plugins/use-cases/deactivate-plugin.use-case';
import { toInstallationView } from '../../plugins/use-cases/installations';
import { secretAad, type PluginRuntime } from '../../plugins/use-cases/plugin-runtime';
import type { Actor } from '../../shared/actor';
import type { Cache } from '../../shared/cache.port';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import type { SecretBox } from '../../shared/secret-box.port';
import { str, validate } from '../../shared/validation';
import { compareVersions, isSemver } from '../domain/versions';
import type { MarketplaceInstallationRepository } from '../ports/marketplace-installation-repository.port';
import { chooseVersion, fetchPackage, importKey, type PackageFetchDeps } from './package-fetch';
import { ownedLink } from './updates';

const schema = yup.object({
  version: str().max(100).test('semver', 'version must be a SemVer version such as 1.2.0', (v) => v === undefined || isSemver(v)),
  settings: yup.mixed(),
});

export type UpgradeView = InstallationView & { previousVersion: string; reactivationError?: string };

/**
 * `POST /api/marketplace/updates/:installedPluginId/upgrade { version?, settings? }`: moves a marketplace
 * installation to a newer version (the one asked for, else the newest compatible release). The package is
 * downloaded and verified first, and the kept settings (plus any given) are checked against the new
 * manifest, so a refusal changes nothing. The installation keeps its id, settings, secrets and KV data; an
 * active one is deactivated for the swap and activated again on the new code.
 */
export class UpgradeMarketplacePluginUseCase {
  constructor(
    private readonly deps: PackageFetchDeps & {
      links: MarketplaceInstallationRepository;
      plugins: PluginRepository;
      installations: InstallationRepository;
      secretBox: SecretBox;
      runtime: PluginRuntime;
      cache: Cache;
      activate: Pick<ActivatePluginUseCase, 'execute'>;
      deactivate: Pick<DeactivatePluginUseCase, 'execute'>;
    },
  ) {}

  async execute(id: unknown, input: unknown, actor: Actor): Promise<UpgradeView> {
    const body = await validate(schema, input ?? {});
    const link = await ownedLink(this.deps.links, id, actor);
    const installation = await this.deps.installations.findById(link.installationId);
    const current = installation && (await this.deps.plugins.findById(installation.pluginId));
    if (!installation || !current) throw new NotFoundError('Marketplace installation');
    const { item, version } = await chooseVersion(this.deps, link.marketplacePluginId, body.version);
    if (isSemver(link.version) && compareVersions(version.version, link.version) <= 0) {
      throw new ConflictError(`The installation already runs ${link.version}; ${version.version} is not newer`);
    }
    const pkg = await fetchPackage(this.deps, item, version);

    // The settings it keeps, checked against the new manifest before anything changes.
    const given: Record<string, unknown> = {};
    const kept: Record<string, string> = {};
    for (const [name, spec] of Object.entries(pkg.manifest.settings)) {
      if (spec.secret && installation.sealedSecrets[name]) {
        kept[name] = installation.sealedSecrets[name]!;
        given[name] = '(kept)';
      } else if (!spec.secret && Object.hasOwn(installation.settings, name)) given[name] = installation.settings[name];
    }
    const overrides = body.settings === undefined || body.settings === null ? {} : body.settings;
    if (typeof overrides !== 'object' || Array.isArray(overrides)) throw ValidationError.field('settings', 'settings must be an object');
    for (const [name, value] of Object.entries(overrides as Record<string, unknown>)) {
      given[name] = value;
      delete kept[name];
    }
    const { plain, secrets } = checkSettings(pkg.manifest.settings, given);

    const wasActive = installation.state === 'activated';
    if (wasActive) await this.deps.deactivate.execute(installation.applicationId, installation.id, actor);
    const plugin = await this.deps.plugins.saveImported({ ownerId: link.ownerId, key: importKey(item.id, installation.applicationId), manifest: pkg.manifest, source: pkg.source });
    const sealed = { ...kept };
    for (const [name, value] of Object.entries(secrets)) if (!kept[name]) sealed[name] = this.deps.secretBox.seal(value, secretAad(installation, name));
    await this.deps.installations.updateSettings(installation.id, plain, sealed);
    let upgraded = await this.deps.installations.setVersion(installation.id, version.version);
    await this.deps.links.setVersion(installation.id, version.version);
    const entry = await this.deps.links.updateOf(installation.id);
    if (entry && compareVersions(version.version, entry.latestVersion) >= 0) await this.deps.links.clearUpdate(installation.id);
    await this.deps.cache.invalidate(`plugins:package:${plugin.id}`);
    await this.deps.runtime.forget(installation.applicationId, installation.id);

    let reactivationError: string | undefined;
    if (wasActive) {
      try {
        await this.deps.activate.execute(installation.applicationId, installation.id, actor);
      } catch (error) {
        reactivationError = (error as Error).message;
      }
      upgraded = (await this.deps.installations.findById(installation.id)) ?? upgraded;
    }
    return { ...toInstallationView(upgraded, plugin), previousVersion: link.version, ...(reactivationError ? { reactivationError } : {}) };
  }
}
