import { ConflictError, ValidationError } from '../../shared/errors';
import type { Actor } from '../../shared/actor';
import { MIN_CRON_PERIOD_MS, shorthandPeriodMs } from '../domain/definition';
import { nextState, type InstallationView } from '../domain/installation';
import { PluginRejectedError } from '../domain/plugin-errors';
import type { PluginScheduler, ScheduledJob } from '../ports/plugin-scheduler.port';
import { findOwnedInstallation, toInstallationView, type InstallationDeps } from './installations';
import { describe, lifecycleView, type PluginRuntime } from './plugin-runtime';

/**
 * installed|deactivated → activated: loads the code (a plugin that does not load is refused with the
 * reason), runs `onActivate`, schedules its cron jobs and runs the `plugin:activated` hook.
 */
export class ActivatePluginUseCase {
  constructor(private readonly deps: InstallationDeps & { runtime: PluginRuntime; scheduler: PluginScheduler }) {}

  async execute(appId: unknown, id: unknown, actor: Actor): Promise<InstallationView> {
    const { installation, plugin } = await findOwnedInstallation(this.deps, appId, id, actor, 'manage');
    nextState(installation.state, 'activate');
    await this.deps.runtime.forget(installation.applicationId, installation.id);
    let loaded;
    try {
      loaded = await this.deps.runtime.load(installation);
    } catch (error) {
      throw new PluginRejectedError(`The plugin could not be loaded: ${describe(error)}`);
    }
    const jobs = loaded.definition.cron.map((c): ScheduledJob => {
      const everyMs = shorthandPeriodMs(c.schedule);
      if (everyMs !== null && everyMs < MIN_CRON_PERIOD_MS) throw ValidationError.field(`cron.${c.name}`, `cron ${c.name}: the shortest period is 10s`);
      const job = { installationId: installation.id, name: c.name, ...(everyMs !== null ? { everyMs } : { pattern: c.schedule }), timezone: c.timezone };
      this.deps.scheduler.validate(job);
      return job;
    });
    if (loaded.definition.onActivate) {
      try {
        await this.deps.runtime.call(installation, { kind: 'lifecycle', name: 'onActivate' }, { installation: lifecycleView(installation) }, this.deps.runtime.limits.call);
      } catch (error) {
        await this.deps.runtime.forget(installation.applicationId, installation.id);
        throw new PluginRejectedError(`onActivate failed: ${describe(error)}`);
      }
    }
    // Scheduled first: BullMQ may still refuse an expression, and a tick before the move finds it not active and does nothing.
    await this.deps.scheduler.schedule(installation.id, jobs);
    const moved = await this.deps.installations.move(installation.id, ['installed', 'deactivated'], 'activated', null);
    if (!moved) {
      await this.deps.scheduler.unschedule(installation.id);
      throw new ConflictError('The installation changed state meanwhile; read it again');
    }
    await this.deps.runtime.forget(installation.applicationId);
    this.deps.runtime.lifecycleHook(moved, 'plugin:activated', loaded.definition);
    this.deps.runtime.stateChanged(moved);
    return toInstallationView(moved, plugin);
  }
}
