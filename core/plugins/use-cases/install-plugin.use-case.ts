import * as yup from 'yup';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { SecretBox } from '../../shared/secret-box.port';
import { str, validate } from '../../shared/validation';
import type { InstallationView } from '../domain/installation';
import { checkSettings } from '../domain/settings';
import { findVisiblePlugin } from './find-plugin';
import { secretAad } from './plugin-runtime';
import { toInstallationView, type InstallationDeps } from './installations';

const schema = yup.object({
  pluginId: str().required('pluginId is required'),
  settings: yup.mixed(),
});

/** Installs a plugin the caller may see into one of their applications (state `installed`); secret settings are sealed. */
export class InstallPluginUseCase {
  constructor(private readonly deps: InstallationDeps & { secretBox: SecretBox }) {}

  async execute(appId: unknown, input: unknown, actor: Actor): Promise<InstallationView> {
    const body = await validate(schema, input);
    const application = await findOwnedApplication(this.deps.applications, appId, actor, 'manage');
    const plugin = await findVisiblePlugin(this.deps.plugins, body.pluginId, actor);
    const { plain, secrets } = checkSettings(plugin.manifest.settings, body.settings);
    const ref = { applicationId: application.id, pluginId: plugin.id };
    const sealedSecrets = Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, this.deps.secretBox.seal(value, secretAad(ref, name))]));
    const installation = await this.deps.installations.create({ ...ref, version: plugin.version, settings: plain, sealedSecrets });
    return toInstallationView(installation, plugin);
  }
}
