import type { Actor } from '../../shared/actor';
import { toProviderKeyView, type ProviderKeyView } from '../domain/provider-key';
import type { ProviderKeyRepository } from '../ports/provider-key-repository.port';

/** The caller's saved keys, as hints (SPEC 4.6). */
export class ListProviderKeysUseCase {
  constructor(private readonly deps: { keys: ProviderKeyRepository }) {}

  async execute(actor: Actor): Promise<ProviderKeyView[]> {
    return (await this.deps.keys.listByUser(actor.userId)).map(toProviderKeyView);
  }
}
