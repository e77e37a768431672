import type { Application } from '../../applications/domain/application';
import type { BrandingPresentation } from '../../branding/use-cases/branding-presentation';
import type { ApplicationThemes } from '../../themes/use-cases/application-themes';
import { toPublicApplicationView, type PublicApplicationView } from '../domain/public-views';

/**
 * The public view of an application with its resolved theme variables and its branding, when the
 * themes and branding areas are composed (without them: name and chosen colours only).
 */
export class PresentApplication {
  constructor(private readonly deps: { themes?: ApplicationThemes; branding?: BrandingPresentation } = {}) {}

  async view(app: Application): Promise<PublicApplicationView> {
    const view = toPublicApplicationView(app);
    const [theme, branding, layer] = await Promise.all([
      this.deps.themes?.resolve(app),
      this.deps.branding?.publicOf(app),
      this.deps.branding?.overridesFor(app.id),
    ]);
    if (layer?.colors) view.theme.colors = { ...view.theme.colors, ...layer.colors } as Record<string, string>;
    if (theme) view.theme.variables = theme.variables;
    if (branding) view.branding = branding;
    return view;
  }
}
