import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { PublicApplicationView } from '../domain/public-views';
import { findHostedApplication } from './hosted-application';
import { PresentApplication } from './present-application';

/** `GET /api/hosted/:slug/app` (and the page itself): the presentation of an application with its hosted page on. */
export class GetHostedApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; presenter?: PresentApplication }) {}

  async execute(slug: string): Promise<PublicApplicationView> {
    return (this.deps.presenter ?? new PresentApplication()).view(await findHostedApplication(this.deps.applications, slug));
  }
}
