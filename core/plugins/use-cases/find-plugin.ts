import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Plugin } from '../domain/plugin';
import type { PluginRepository } from '../ports/plugin-repository.port';

/** A plugin the caller may see (own, or published), else 404. */
export async function findVisiblePlugin(plugins: PluginRepository, id: unknown, actor: Actor): Promise<Plugin> {
  const found = isUuid(id) ? await plugins.findById(id) : null;
  if (!found || (found.ownerId !== actor.userId && !found.published)) throw new NotFoundError('Plugin');
  return found;
}
