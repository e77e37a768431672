import type { ProviderId } from '../../ai/domain/provider-id';

/** Which key embeds on an owner's behalf. The key lives for one call and is never stored or queued. */
export interface EmbeddingKeySource {
  /** The owner's own key for the provider when saved, else the platform's; null when there is neither. */
  keyFor(ownerId: string, provider: ProviderId): Promise<string | null>;
}
