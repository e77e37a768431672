import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { AccessAction } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { visibleSettings } from '../domain/settings';
import type { Installation, InstallationView } from '../domain/installation';
import type { Plugin } from '../domain/plugin';
import type { InstallationRepository } from '../ports/installation-repository.port';
import type { PluginRepository } from '../ports/plugin-repository.port';

export interface InstallationDeps {
  applications: ApplicationRepository;
  plugins: PluginRepository;
  installations: InstallationRepository;
}

/**
 * The installation named in `/api/applications/:appId/plugins/:id` of one of the caller's applications:
 * `:id` is the installation's id or the installed plugin's id. Anything else is 404.
 */
export async function findOwnedInstallation(
  deps: InstallationDeps,
  appId: unknown,
  id: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
): Promise<{ installation: Installation; plugin: Plugin }> {
  const application = await findOwnedApplication(deps.applications, appId, actor, action);
  if (!isUuid(id)) throw new NotFoundError('Plugin installation');
  const byId = await deps.installations.findById(id);
  const installation = byId?.applicationId === application.id ? byId : await deps.installations.findByPlugin(application.id, id);
  if (!installation) throw new NotFoundError('Plugin installation');
  const plugin = await deps.plugins.findById(installation.pluginId);
  if (!plugin) throw new NotFoundError('Plugin installation');
  return { installation, plugin };
}

/** The installation as the API shows it: secrets as `{ secret: true, set: true }`, never their value. */
export function toInstallationView(i: Installation, plugin: Plugin): InstallationView {
  return {
    id: i.id,
    pluginId: i.pluginId,
    applicationId: i.applicationId,
    name: plugin.name,
    displayName: plugin.manifest.displayName,
    state: i.state,
    version: i.version,
    settings: visibleSettings(plugin.manifest.settings, i.settings, Object.keys(i.sealedSecrets)),
    counters: { calls: i.callCount, failures: i.failureCount, consecutiveFailures: i.consecutiveFailures },
    lastError: i.lastError,
    lastErrorAt: i.lastErrorAt?.toISOString() ?? null,
    deactivationReason: i.deactivationReason,
    installedAt: i.installedAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}
