import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { ValidationError } from '../../shared/errors';
import type { PublicApplicationView } from '../domain/public-views';
import { PresentApplication } from './present-application';
import type { PublicCaller } from '../domain/public-caller';
import { findScopedApplication } from './scoped-application';

/**
 * `GET /api/v1/app`: the presentation of an application in the key's scope.
 * A key for one application answers with it; an all-applications key names one with `?applicationId=`.
 */
export class GetPublicApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; presenter?: PresentApplication }) {}

  async execute(query: { applicationId?: unknown }, caller: PublicCaller): Promise<PublicApplicationView> {
    const requested = typeof query.applicationId === 'string' && query.applicationId !== '' ? query.applicationId : undefined;
    const id = requested ?? caller.key.applicationId;
    if (id === null) {
      throw ValidationError.field('applicationId', 'applicationId is required: this API key covers all of its owner\'s applications');
    }
    return (this.deps.presenter ?? new PresentApplication()).view(await findScopedApplication(this.deps.applications, caller, id));
  }
}
