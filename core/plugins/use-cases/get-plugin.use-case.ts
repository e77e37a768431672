import type { Actor } from '../../shared/actor';
import { toPluginView, type PluginView } from '../domain/plugin';
import type { PluginRepository } from '../ports/plugin-repository.port';
import { findVisiblePlugin } from './find-plugin';

/** One plugin: manifest and versions; its source only for the owner or once published. */
export class GetPluginUseCase {
  constructor(private readonly deps: { plugins: PluginRepository }) {}

  async execute(id: unknown, actor: Actor): Promise<PluginView> {
    return toPluginView(await findVisiblePlugin(this.deps.plugins, id, actor), actor.userId, true);
  }
}
