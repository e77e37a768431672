import type { Actor } from '../../shared/actor';
import type { SecretBox } from '../../shared/secret-box.port';
import { ValidationError } from '../../shared/errors';
import type { InstallationView } from '../domain/installation';
import { checkSettings } from '../domain/settings';
import { findOwnedInstallation, toInstallationView, type InstallationDeps } from './installations';
import { secretAad, type PluginRuntime } from './plugin-runtime';

/**
 * Replaces an installation's settings, checked against the manifest like at install. A secret left out
 * keeps its stored value (clients never hold it); `null` clears it. An active installation reloads its code.
 */
export class UpdatePluginSettingsUseCase {
  constructor(private readonly deps: InstallationDeps & { secretBox: SecretBox; runtime: PluginRuntime }) {}

  async execute(appId: unknown, id: unknown, input: unknown, actor: Actor): Promise<InstallationView> {
    const { installation, plugin } = await findOwnedInstallation(this.deps, appId, id, actor, 'manage');
    const body = (input ?? {}) as { settings?: unknown };
    if (body === null || typeof body !== 'object' || body.settings === null || typeof body.settings !== 'object' || Array.isArray(body.settings)) {
      throw ValidationError.field('settings', 'settings must be an object');
    }
    const given = { ...(body.settings as Record<string, unknown>) };
    const kept: Record<string, string> = {};
    for (const [name, spec] of Object.entries(plugin.manifest.settings)) {
      if (!spec.secret || given[name] !== undefined) continue;
      const sealed = installation.sealedSecrets[name];
      if (sealed) {
        kept[name] = sealed;
        given[name] = '(kept)'; // satisfies `required`; the sealed value is kept as it is
      }
    }
    const { plain, secrets } = checkSettings(plugin.manifest.settings, given);
    const sealedSecrets = { ...kept };
    for (const [name, value] of Object.entries(secrets)) if (!kept[name]) sealedSecrets[name] = this.deps.secretBox.seal(value, secretAad(installation, name));
    const updated = await this.deps.installations.updateSettings(installation.id, plain, sealedSecrets);
    await this.deps.runtime.forget(installation.applicationId, installation.id);
    return toInstallationView(updated, plugin);
  }
}
