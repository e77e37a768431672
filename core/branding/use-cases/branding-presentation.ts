import type { Application } from '../../applications/domain/application';
import type { ThemeOverrides } from '../../themes/domain/theme';
import type { ThemeLayer } from '../../themes/use-cases/application-themes';
import { brandingOverrides, defaultBranding, type Branding, type PublicBranding } from '../domain/branding';
import type { BrandingRepository } from '../ports/branding-repository.port';
import type { PlanFeatures } from '../ports/plan-features.port';

/**
 * Branding as visitors meet it: as a layer over the application's theme, and as the widget's settings.
 * The attribution line shows again when the owner's plan no longer allows hiding it.
 */
export class BrandingPresentation implements ThemeLayer {
  constructor(private readonly deps: { branding: BrandingRepository; plans: PlanFeatures }) {}

  async overridesFor(applicationId: string): Promise<ThemeOverrides> {
    const branding = await this.deps.branding.find(applicationId);
    return branding ? brandingOverrides(branding) : {};
  }

  async publicOf(app: Pick<Application, 'id' | 'ownerId'>): Promise<PublicBranding> {
    const b: Branding = (await this.deps.branding.find(app.id)) ?? defaultBranding();
    const hidden = !b.showAttribution && (await this.deps.plans.mayHideAttribution(app.ownerId));
    return {
      position: b.widget.position ?? null,
      welcomeMessage: b.widget.welcomeMessage ?? null,
      placeholder: b.widget.placeholder ?? null,
      customCss: b.compiledCss,
      showAttribution: !hidden,
    };
  }

  /** The e-mail settings of an application's branding, for mails sent on its behalf. */
  async emailOf(applicationId: string): Promise<Branding['email']> {
    return (await this.deps.branding.find(applicationId))?.email ?? {};
  }
}
