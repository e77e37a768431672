import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';

/** The caller's own applications, newest first, paged. */
export class ListApplicationsUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<ApplicationView>> {
    const page = parsePageRequest(query);
    const { items, total } = await this.deps.applications.listByOwner(actor.userId, offsetOf(page), page.limit);
    return { data: items.map(toApplicationView), total, page: page.page, limit: page.limit };
  }
}
