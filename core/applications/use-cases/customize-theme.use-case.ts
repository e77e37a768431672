import type { Actor } from '../../shared/actor';
import { validate } from '../../shared/validation';
import { toApplicationView, type ApplicationView, type ThemeCustomization } from '../domain/application';
import { themeCustomizationSchema } from '../domain/theme-customization';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

/** Merges colour, typography and layout overrides into the application's theme customization. */
export class CustomizeThemeUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor);
    const patch = (await validate(themeCustomizationSchema, input)) as ThemeCustomization;
    const current = app.themeCustomization;
    const merged: ThemeCustomization = {
      colors: { ...current.colors, ...patch.colors },
      typography: { ...current.typography, ...patch.typography },
      layout: { ...current.layout, ...patch.layout },
    };
    return toApplicationView(await this.deps.applications.update(app.id, { themeCustomization: merged }));
  }
}
