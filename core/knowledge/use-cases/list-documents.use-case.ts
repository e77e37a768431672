import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toDocumentView, type KnowledgeDocumentView } from '../domain/knowledge-document';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';

/** The documents of one of the caller's applications, newest first, paged. */
export class ListDocumentsUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; documents: KnowledgeDocumentRepository }) {}

  async execute(query: { applicationId?: unknown; page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<KnowledgeDocumentView>> {
    if (query.applicationId === undefined || query.applicationId === '') throw ValidationError.field('applicationId', 'applicationId is required');
    const page = parsePageRequest(query);
    const app = await findOwnedApplication(this.deps.applications, query.applicationId, actor, 'read');
    const { items, total } = await this.deps.documents.listByApplication(app.id, offsetOf(page), page.limit);
    return { data: items.map(toDocumentView), total, page: page.page, limit: page.limit };
  }
}
