import type { Actor } from '../../shared/actor';
import { ConflictError } from '../../shared/errors';
import { nextState, type InstallationView } from '../domain/installation';
import { findOwnedInstallation, toInstallationView, type InstallationDeps } from './installations';
import { lifecycleView, type PluginRuntime } from './plugin-runtime';

/** activated → deactivated: runs `onDeactivate` and `plugin:deactivated` (best effort), stops schedules and the isolate. */
export class DeactivatePluginUseCase {
  constructor(private readonly deps: InstallationDeps & { runtime: PluginRuntime }) {}

  async execute(appId: unknown, id: unknown, actor: Actor): Promise<InstallationView> {
    const { installation, plugin } = await findOwnedInstallation(this.deps, appId, id, actor, 'manage');
    nextState(installation.state, 'deactivate');
    const moved = await this.deps.installations.move(installation.id, ['activated'], 'deactivated', null);
    if (!moved) throw new ConflictError('The installation changed state meanwhile; read it again');
    const runtime = this.deps.runtime;
    const definition = runtime.definitionOf(installation.id);
    if (definition) {
      // The code is still loaded here: let it say goodbye before the isolate goes.
      const calls: Promise<unknown>[] = [];
      if (definition.hooks.some((h) => h.name === 'plugin:deactivated')) {
        calls.push(runtime.call(installation, { kind: 'hook', name: 'plugin:deactivated' }, { installation: lifecycleView(moved) }, runtime.limits.hook));
      }
      if (definition.onDeactivate) calls.push(runtime.call(installation, { kind: 'lifecycle', name: 'onDeactivate' }, { installation: lifecycleView(moved) }, runtime.limits.call));
      await Promise.allSettled(calls);
    }
    await runtime.afterDeactivation(moved);
    return toInstallationView(moved, plugin);
  }
}
