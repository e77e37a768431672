import { isUuid } from '../../shared/ids';
import { presetById } from '../domain/presets';
import type { Theme, ThemeView } from '../domain/theme';
import { cssVariables } from '../domain/theme-rules';
import type { ThemeRepository } from '../ports/theme-repository.port';

/**
 * The themes a user may use: the presets, their own, and published ones. Anything else, including
 * another user's unpublished theme, is unknown (null), so callers answer 404 without revealing it.
 */
export class ThemeCatalog {
  constructor(private readonly deps: { themes: ThemeRepository }) {}

  async find(id: unknown, ownerId: string): Promise<Theme | null> {
    if (typeof id !== 'string') return null;
    const preset = presetById(id);
    if (preset) return preset;
    if (!isUuid(id)) return null;
    const theme = await this.deps.themes.findById(id);
    return theme && (theme.ownerId === ownerId || theme.published) ? theme : null;
  }
}

export const toThemeView = (theme: Theme, viewerId: string): ThemeView => ({
  id: theme.id,
  name: theme.name,
  description: theme.description,
  preset: theme.ownerId === null,
  own: theme.ownerId === viewerId,
  published: theme.published,
  extend: theme.extend,
  definition: theme.definition,
  variables: cssVariables(theme.definition),
  createdAt: theme.ownerId === null ? null : theme.createdAt.toISOString(),
});
