import type { Actor } from '../../shared/actor';
import { ConflictError } from '../../shared/errors';
import { nextState } from '../domain/installation';
import type { PluginScheduler } from '../ports/plugin-scheduler.port';
import { findOwnedInstallation, type InstallationDeps } from './installations';
import type { PluginRuntime } from './plugin-runtime';

/** Removes an installation that is not active, with its KV data, run log and schedules. */
export class UninstallPluginUseCase {
  constructor(private readonly deps: InstallationDeps & { runtime: PluginRuntime; scheduler: PluginScheduler }) {}

  async execute(appId: unknown, id: unknown, actor: Actor): Promise<void> {
    const { installation } = await findOwnedInstallation(this.deps, appId, id, actor, 'manage');
    nextState(installation.state, 'uninstall');
    if (!(await this.deps.installations.delete(installation.id, ['installed', 'deactivated']))) {
      throw new ConflictError('The installation changed state meanwhile; read it again');
    }
    await this.deps.scheduler.unschedule(installation.id);
    await this.deps.runtime.forget(installation.applicationId, installation.id);
  }
}
