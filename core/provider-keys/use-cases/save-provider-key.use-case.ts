import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import type { SecretBox } from '../../shared/secret-box.port';
import { keyHintOf, parseApiKey, parseProviderParam, providerKeyAssociatedData, toSavedProviderKeyView, type SavedProviderKeyView } from '../domain/provider-key';
import type { ProviderKeyRepository } from '../ports/provider-key-repository.port';

/** Checks the key's prefix, seals it to the caller and provider, and stores it in place of any earlier one. */
export class SaveProviderKeyUseCase {
  constructor(private readonly deps: { keys: ProviderKeyRepository; secretBox: SecretBox; clock: Clock }) {}

  async execute(providerParam: unknown, body: unknown, actor: Actor): Promise<SavedProviderKeyView> {
    const provider = parseProviderParam(providerParam);
    const rawKey = parseApiKey(provider, body);
    const sealedKey = this.deps.secretBox.seal(rawKey, providerKeyAssociatedData(actor.userId, provider));
    const saved = await this.deps.keys.save({ userId: actor.userId, provider, sealedKey, keyHint: keyHintOf(rawKey) }, this.deps.clock.now());
    return toSavedProviderKeyView(saved);
  }
}
