import type { Application } from '../../applications/domain/application';
import { DEFAULT_THEME_ID, presetById } from '../domain/presets';
import type { ThemeDefinition, ThemeOverrides } from '../domain/theme';
import { cssVariables, mergeTheme, validateDefinition } from '../domain/theme-rules';
import type { ThemeCatalog } from './theme-catalog';

/** A layer applied over an application's theme and customization: its branding (colours, fonts, radius). */
export interface ThemeLayer {
  overridesFor(applicationId: string): Promise<ThemeOverrides>;
}

export interface ResolvedTheme {
  themeId: string;
  definition: ThemeDefinition;
  variables: Record<string, string>;
}

/**
 * One theme per application: the selected theme (a preset, own or published theme; `default` when none
 * or when it is no longer usable), its customization, then its branding, each merged over the last.
 */
export class ApplicationThemes {
  constructor(private readonly deps: { catalog: ThemeCatalog; layer?: ThemeLayer }) {}

  /** The base definition an application's customization is merged over. */
  async baseOf(app: Pick<Application, 'themeId' | 'ownerId'>): Promise<{ themeId: string; definition: ThemeDefinition }> {
    const theme = (app.themeId && (await this.deps.catalog.find(app.themeId, app.ownerId))) || presetById(DEFAULT_THEME_ID)!;
    return { themeId: theme.id, definition: theme.definition };
  }

  /** Throws a 400 naming the field when the customization would not make a valid theme. */
  async check(app: Pick<Application, 'themeId' | 'ownerId'>, customization: ThemeOverrides): Promise<void> {
    validateDefinition(mergeTheme((await this.baseOf(app)).definition, customization));
  }

  async resolve(app: Application): Promise<ResolvedTheme> {
    const base = await this.baseOf(app);
    const layers: ThemeOverrides[] = [app.themeCustomization, (await this.deps.layer?.overridesFor(app.id)) ?? {}];
    let definition = base.definition;
    // Each layer was valid when stored; should one no longer fit (a base that changed), it is skipped
    // rather than serving a broken stylesheet.
    for (const layer of layers) {
      try {
        definition = validateDefinition(mergeTheme(definition, layer));
      } catch {
        /* keep the theme as it was before this layer */
      }
    }
    return { themeId: base.themeId, definition, variables: cssVariables(definition) };
  }
}
