import type { Actor } from '../../shared/actor';
import type { Cache } from '../../shared/cache.port';
import { NotFoundError } from '../../shared/errors';
import { toPluginView, type PluginView } from '../domain/plugin';
import type { PluginRepository } from '../ports/plugin-repository.port';
import { findVisiblePlugin } from './find-plugin';

/** Makes the caller's plugin installable by every user of the platform (publishing twice changes nothing). */
export class PublishPluginUseCase {
  constructor(private readonly deps: { plugins: PluginRepository; cache: Cache }) {}

  async execute(id: unknown, actor: Actor): Promise<PluginView> {
    const plugin = await findVisiblePlugin(this.deps.plugins, id, actor);
    if (plugin.ownerId !== actor.userId) throw new NotFoundError('Plugin');
    const published = plugin.published ? plugin : await this.deps.plugins.publish(plugin.id);
    await this.deps.cache.invalidate(`plugins:package:${plugin.id}`);
    return toPluginView(published, actor.userId, true);
  }
}
