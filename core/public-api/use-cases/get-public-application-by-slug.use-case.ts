import { SLUG_PATTERN } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { PublicApplicationView } from '../domain/public-views';
import { PresentApplication } from './present-application';
import type { PublicCaller } from '../domain/public-caller';
import { usableApplication } from './scoped-application';

/** `GET /api/v1/app/:slug`: an application in the key's scope, addressed by its slug. */
export class GetPublicApplicationBySlugUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; presenter?: PresentApplication }) {}

  async execute(slug: string, caller: PublicCaller): Promise<PublicApplicationView> {
    const app = SLUG_PATTERN.test(slug) ? await this.deps.applications.findBySlug(slug) : null;
    return (this.deps.presenter ?? new PresentApplication()).view(usableApplication(app, caller));
  }
}
