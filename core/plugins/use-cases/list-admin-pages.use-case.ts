import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { InstallationDeps } from './installations';
import type { PluginRuntime } from './plugin-runtime';

/** Admin pages (metadata) of the application's active plugins, for a dashboard to render. */
export class ListAdminPagesUseCase {
  constructor(private readonly deps: InstallationDeps & { runtime: PluginRuntime }) {}

  async execute(appId: unknown, actor: Actor) {
    const application = await findOwnedApplication(this.deps.applications, appId, actor, 'read');
    const pages = [];
    for (const installation of await this.deps.runtime.active(application.id)) {
      const loaded = await this.deps.runtime.load(installation).catch(() => null);
      for (const page of loaded?.definition.adminPages ?? []) pages.push({ ...page, pluginId: installation.pluginId, installationId: installation.id });
    }
    return pages;
  }
}
