import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';

/**
 * `?teamId=`: a team's id (only that team's applications), `personal` (only the caller's own), or absent
 * (both). Shared by every list of "the caller's" resources.
 */
export function parseTeamFilter(raw: unknown): string | null | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'personal') return null;
  if (isUuid(raw)) return raw;
  throw ValidationError.field('teamId', 'teamId must be a team id or "personal"');
}

/** The applications the caller may see (their own and their teams'), newest first, paged. */
export class ListApplicationsUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown; teamId?: unknown }, actor: Actor): Promise<Page<ApplicationView>> {
    const page = parsePageRequest(query);
    const teamId = parseTeamFilter(query.teamId);
    const { items, total } = await this.deps.applications.listVisible(actor.userId, teamId, offsetOf(page), page.limit);
    return { data: items.map(toApplicationView), total, page: page.page, limit: page.limit };
  }
}
