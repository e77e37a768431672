import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { offsetOf, parsePageRequest } from '../../shared/pagination';
import { toModelConfigView, type ModelConfigView } from '../domain/model-config';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';

/** The configs of one of the caller's applications (`?applicationId=` is required), oldest first. */
export class ListModelConfigsUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; configs: ModelConfigRepository }) {}

  async execute(query: { applicationId?: unknown; page?: unknown; limit?: unknown }, actor: Actor): Promise<ModelConfigView[]> {
    if (query.applicationId === undefined || query.applicationId === '') {
      throw ValidationError.field('applicationId', 'applicationId is required');
    }
    const page = parsePageRequest(query);
    const application = await findOwnedApplication(this.deps.applications, query.applicationId, actor, 'read');
    const configs = await this.deps.configs.listByApplication(application.id, offsetOf(page), page.limit);
    return configs.map(toModelConfigView);
  }
}
