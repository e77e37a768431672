import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { InstallationView } from '../domain/installation';
import type { PluginRun } from '../ports/installation-repository.port';
import { findOwnedInstallation, toInstallationView, type InstallationDeps } from './installations';

/** The application's installations with state, version, counters and last error. */
export class ListInstallationsUseCase {
  constructor(private readonly deps: InstallationDeps) {}

  async execute(appId: unknown, actor: Actor): Promise<InstallationView[]> {
    const application = await findOwnedApplication(this.deps.applications, appId, actor, 'read');
    const installations = await this.deps.installations.listByApplication(application.id);
    const views: InstallationView[] = [];
    for (const i of installations) {
      const plugin = await this.deps.plugins.findById(i.pluginId);
      if (plugin) views.push(toInstallationView(i, plugin));
    }
    return views;
  }
}

/** One installation, with its recent runs (cron, endpoints, webhooks) newest first. */
export class GetInstallationUseCase {
  constructor(private readonly deps: InstallationDeps) {}

  async execute(appId: unknown, id: unknown, actor: Actor): Promise<InstallationView & { runs: (Omit<PluginRun, 'at'> & { at: string })[] }> {
    const { installation, plugin } = await findOwnedInstallation(this.deps, appId, id, actor, 'read');
    const runs = await this.deps.installations.listRuns(installation.id, 50);
    return { ...toInstallationView(installation, plugin), runs: runs.map((r) => ({ ...r, at: r.at.toISOString() })) };
  }
}
