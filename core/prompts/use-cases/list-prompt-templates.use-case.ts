import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { offsetOf, parsePageRequest } from '../../shared/pagination';
import { toPromptTemplateView, type PromptTemplateView } from '../domain/prompt-template';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';

/** The templates of one of the caller's applications (`?applicationId=` is required), oldest first. */
export class ListPromptTemplatesUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; templates: PromptTemplateRepository }) {}

  async execute(query: { applicationId?: unknown; page?: unknown; limit?: unknown }, actor: Actor): Promise<PromptTemplateView[]> {
    if (query.applicationId === undefined || query.applicationId === '') {
      throw ValidationError.field('applicationId', 'applicationId is required');
    }
    const page = parsePageRequest(query);
    const application = await findOwnedApplication(this.deps.applications, query.applicationId, actor, 'read');
    const templates = await this.deps.templates.listByApplication(application.id, offsetOf(page), page.limit);
    return templates.map(toPromptTemplateView);
  }
}
