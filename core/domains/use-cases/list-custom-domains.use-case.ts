import { parseTeamFilter } from '../../applications/use-cases/list-applications.use-case';
import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toCustomDomainView, type CustomDomainView } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import type { DomainPolicy } from './domain-policy';

/** `GET /api/custom-domains`: the caller's domains and their teams' (`?teamId=` narrows), newest first. */
export class ListCustomDomainsUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; policy: DomainPolicy }) {}

  async execute(query: { page?: unknown; limit?: unknown; teamId?: unknown }, actor: Actor): Promise<Page<CustomDomainView>> {
    const request = parsePageRequest(query);
    const { items, total } = await this.deps.domains.listByOwner(actor.userId, offsetOf(request), request.limit, parseTeamFilter(query.teamId));
    return { data: items.map((d) => toCustomDomainView(d, this.deps.policy.target)), total, page: request.page, limit: request.limit };
  }
}
