import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest } from '../../shared/pagination';
import { toPluginView, type PluginView } from '../domain/plugin';
import type { PluginRepository } from '../ports/plugin-repository.port';

/** The caller's own plugins and every published one (without source). */
export class ListPluginsUseCase {
  constructor(private readonly deps: { plugins: PluginRepository }) {}

  async execute(query: unknown, actor: Actor): Promise<PluginView[]> {
    const page = parsePageRequest((query ?? {}) as { page?: unknown; limit?: unknown });
    const offset = offsetOf(page);
    const limit = page.limit;
    const found = await this.deps.plugins.listVisible(actor.userId, offset, limit);
    return found.map((p) => toPluginView(p, actor.userId, false));
  }
}
