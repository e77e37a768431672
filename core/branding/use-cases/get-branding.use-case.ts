import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { defaultBranding, toBrandingView, type BrandingView } from '../domain/branding';
import type { BrandingRepository } from '../ports/branding-repository.port';

/** `GET /api/branding/:appId`: the application's branding, or the defaults when none was saved. */
export class GetBrandingUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; branding: BrandingRepository }) {}

  async execute(appId: string, actor: Actor): Promise<BrandingView> {
    const app = await findOwnedApplication(this.deps.applications, appId, actor, 'read');
    return toBrandingView(app.id, (await this.deps.branding.find(app.id)) ?? defaultBranding());
  }
}
