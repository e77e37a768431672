import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { parseOverrides } from '../../themes/domain/theme-rules';
import type { ApplicationThemes } from '../../themes/use-cases/application-themes';
import { toApplicationView, type ApplicationView, type ThemeCustomization } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

/**
 * Merges colour, typography, layout and custom-variable overrides into the application's customization;
 * the theme they make with the selected one must be valid (400 naming the field).
 */
export class CustomizeThemeUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; themes: ApplicationThemes }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'manage');
    if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new ValidationError('Request body must be a JSON object');
    const patch = parseOverrides(input);
    const current = app.themeCustomization;
    const merged: ThemeCustomization = {};
    for (const section of ['colors', 'typography', 'layout', 'custom'] as const) {
      const values = { ...current[section], ...patch[section] };
      if (Object.keys(values).length) (merged as Record<string, unknown>)[section] = values;
    }
    await this.deps.themes.check(app, merged);
    return toApplicationView(await this.deps.applications.update(app.id, { themeCustomization: merged }));
  }
}
