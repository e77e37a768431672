import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import type { ThemeView } from '../domain/theme';
import { toThemeView, type ThemeCatalog } from './theme-catalog';

/** `GET /api/themes/:id`: a preset, an own theme or a published one; anything else 404. */
export class GetThemeUseCase {
  constructor(private readonly deps: { catalog: ThemeCatalog }) {}

  async execute(id: string, actor: Actor): Promise<ThemeView> {
    const theme = await this.deps.catalog.find(id, actor.userId);
    if (!theme) throw new NotFoundError('Theme');
    return toThemeView(theme, actor.userId);
  }
}
