import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import { noUnitOfWork, type UnitOfWork } from '../../shared/unit-of-work.port';
import { apiKeyRevoked } from './api-key-events';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';
import type { ApiKeyLookup } from './api-key-lookup';
import { findOwnedApiKey } from './find-owned-api-key';

/** Deletes one of the caller's keys; conversations it started stay, readable from the dashboard only. */
export class DeleteApiKeyUseCase {
  constructor(private readonly deps: { keys: ApiKeyRepository; applications?: ApplicationRepository; lookup: ApiKeyLookup; events?: EventPublisher; unitOfWork?: UnitOfWork }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const key = await findOwnedApiKey(this.deps.keys, id, actor, 'manage', this.deps.applications ?? null);
    await (this.deps.unitOfWork ?? noUnitOfWork).run(async () => {
      await this.deps.keys.delete(key.id);
      // A deleted key stops working as a revoked one does; one that was revoked already was announced then.
      if (key.revokedAt === null) await this.deps.events?.publish(apiKeyRevoked(key));
    });
    await this.deps.lookup.forget();
  }
}
