import { parseTeamFilter } from '../../applications/use-cases/list-applications.use-case';
import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest } from '../../shared/pagination';
import { toApiKeyView, type ApiKeyView } from '../domain/api-key';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';
import type { ApiKeyUsageTracker } from './api-key-usage-tracker';

/** The caller's API keys, newest first: prefix and last four characters only, never the key. */
export class ListApiKeysUseCase {
  constructor(private readonly deps: { keys: ApiKeyRepository; usage: ApiKeyUsageTracker }) {}

  async execute(query: { page?: unknown; limit?: unknown; teamId?: unknown }, actor: Actor): Promise<ApiKeyView[]> {
    const page = parsePageRequest(query);
    const keys = await this.deps.keys.listByOwner(actor.userId, offsetOf(page), page.limit, parseTeamFilter(query.teamId));
    // Usage this instance has not flushed yet is added, so a key used a moment ago shows it.
    return keys.map((key) => toApiKeyView(this.deps.usage.withPending(key)));
  }
}
