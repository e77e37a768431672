import type { ProviderId } from '../../ai/domain/provider-id';
import { currentPlan, type CurrentPlanDeps } from '../../billing/use-cases/current-plan';
import type { ProviderKeyRepository } from '../../provider-keys/ports/provider-key-repository.port';
import { openProviderKey } from '../../provider-keys/use-cases/open-provider-key';
import type { SecretBox } from '../../shared/secret-box.port';
import type { EmbeddingKeySource } from '../ports/embedding-key-source.port';

export type OwnerEmbeddingKeysDeps = CurrentPlanDeps & {
  keys: ProviderKeyRepository;
  secretBox: SecretBox;
  /** PROVIDER_X_API_KEY, when the platform has one. */
  platformKey(provider: ProviderId): string | undefined;
};

/**
 * Embedding keys by the chat's rules (SPEC 2.5, 8): the owner's active own key first; otherwise the
 * platform's key, but only on a plan that includes platform usage (not on Free).
 */
export class OwnerEmbeddingKeys implements EmbeddingKeySource {
  constructor(private readonly deps: OwnerEmbeddingKeysDeps) {}

  async keyFor(ownerId: string, provider: ProviderId): Promise<string | null> {
    const stored = await this.deps.keys.find(ownerId, provider);
    if (stored?.isActive) {
      const key = openProviderKey(this.deps.secretBox, stored);
      await this.deps.keys.markUsed(ownerId, provider, this.deps.clock.now());
      return key;
    }
    const platform = this.deps.platformKey(provider);
    if (!platform) return null;
    return (await currentPlan(this.deps, ownerId)).entitlements.platformKeys ? platform : null;
  }
}
