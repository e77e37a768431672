import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { PRESETS } from '../domain/presets';
import type { ThemeView } from '../domain/theme';
import type { ThemeRepository } from '../ports/theme-repository.port';
import { toThemeView } from './theme-catalog';

/** `GET /api/themes`: the presets first, then the caller's own and the published themes, newest first. */
export class ListThemesUseCase {
  constructor(private readonly deps: { themes: ThemeRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<ThemeView>> {
    const request = parsePageRequest(query);
    const offset = offsetOf(request);
    const presets = PRESETS.slice(offset, offset + request.limit);
    const storedOffset = Math.max(0, offset - PRESETS.length);
    const storedLimit = request.limit - presets.length;
    const stored = await this.deps.themes.listVisible(actor.userId, storedOffset, Math.max(storedLimit, 1));
    const items = [...presets, ...(storedLimit > 0 ? stored.items : [])];
    return { data: items.map((t) => toThemeView(t, actor.userId)), total: PRESETS.length + stored.total, page: request.page, limit: request.limit };
  }
}
