import type { Actor } from '../../shared/actor';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';
import type { ApiKeyLookup } from './api-key-lookup';
import { findOwnedApiKey } from './find-owned-api-key';

/** Deletes one of the caller's keys; conversations it started stay, readable from the dashboard only. */
export class DeleteApiKeyUseCase {
  constructor(private readonly deps: { keys: ApiKeyRepository; lookup: ApiKeyLookup }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const key = await findOwnedApiKey(this.deps.keys, id, actor);
    await this.deps.keys.delete(key.id);
    await this.deps.lookup.forget();
  }
}
