import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { parseProviderParam } from '../domain/provider-key';
import type { ProviderKeyRepository } from '../ports/provider-key-repository.port';

/** Removes the caller's key for a provider for good (SPEC 4.6); 404 when there is none. */
export class DeleteProviderKeyUseCase {
  constructor(private readonly deps: { keys: ProviderKeyRepository }) {}

  async execute(providerParam: unknown, actor: Actor): Promise<void> {
    const provider = parseProviderParam(providerParam);
    if (!(await this.deps.keys.delete(actor.userId, provider))) throw new NotFoundError('Provider key', `No ${provider} key is saved`);
  }
}
