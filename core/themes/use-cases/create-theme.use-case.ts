import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { bool, str, validate } from '../../shared/validation';
import type { ThemeDefinition, ThemeView } from '../domain/theme';
import { mergeTheme, parseOverrides, validateDefinition } from '../domain/theme-rules';
import type { ThemeRepository } from '../ports/theme-repository.port';
import { toThemeView, type ThemeCatalog } from './theme-catalog';

const schema = yup.object({
  name: str().required('name is required').min(1, 'name must not be empty').max(100, 'name must be at most 100 characters'),
  description: str().max(1000, 'description must be at most 1000 characters').default(''),
  extend: str().max(100, 'extend must be a preset name or theme id').nullable(),
  published: bool().default(false),
});

const EMPTY: ThemeDefinition = { colors: {}, typography: {}, layout: {}, custom: {} } as unknown as ThemeDefinition;

/**
 * `POST /api/themes`: a theme of the caller, optionally extending a preset or another usable theme.
 * The overrides are deep-merged over that base and the result must be complete and valid (400 naming
 * each bad field); without `extend` every field must be given.
 */
export class CreateThemeUseCase {
  constructor(private readonly deps: { themes: ThemeRepository; catalog: ThemeCatalog }) {}

  async execute(input: unknown, actor: Actor): Promise<ThemeView> {
    const body = await validate(schema, input);
    const overrides = parseOverrides(pickSections(input));
    let base = EMPTY;
    if (body.extend) {
      const parent = await this.deps.catalog.find(body.extend, actor.userId);
      if (!parent) throw ValidationError.field('extend', `extend names no theme you can use: ${body.extend}`);
      base = parent.definition;
    }
    const definition = validateDefinition(mergeTheme(base, overrides));
    const theme = await this.deps.themes.create({
      ownerId: actor.userId,
      name: body.name,
      description: body.description ?? '',
      extend: body.extend ?? null,
      overrides,
      definition,
      published: body.published ?? false,
    });
    return toThemeView(theme, actor.userId);
  }
}

function pickSections(input: unknown): Record<string, unknown> {
  const { colors, typography, layout, custom } = input as Record<string, unknown>;
  return { colors, typography, layout, custom };
}
