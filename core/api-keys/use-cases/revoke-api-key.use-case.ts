import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import { noUnitOfWork, type UnitOfWork } from '../../shared/unit-of-work.port';
import { apiKeyRevoked } from './api-key-events';
import { NotFoundError } from '../../shared/errors';
import { toApiKeyView, type ApiKeyView } from '../domain/api-key';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';
import type { ApiKeyLookup } from './api-key-lookup';
import { findOwnedApiKey } from './find-owned-api-key';

/** Revokes one of the caller's keys: kept in the list, refused by the public API from now on. */
export class RevokeApiKeyUseCase {
  constructor(private readonly deps: { keys: ApiKeyRepository; applications?: ApplicationRepository; lookup: ApiKeyLookup; clock: Clock; events?: EventPublisher; unitOfWork?: UnitOfWork }) {}

  async execute(id: string, actor: Actor): Promise<ApiKeyView> {
    const key = await findOwnedApiKey(this.deps.keys, id, actor, 'manage', this.deps.applications ?? null);
    const revoked = await (this.deps.unitOfWork ?? noUnitOfWork).run(async () => {
      const done = await this.deps.keys.revoke(key.id, this.deps.clock.now());
      if (done) await this.deps.events?.publish(apiKeyRevoked(done));
      return done;
    });
    await this.deps.lookup.forget();
    if (!revoked) throw new NotFoundError('API key');
    return toApiKeyView(revoked);
  }
}
