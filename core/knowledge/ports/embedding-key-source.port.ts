import type { ProviderId } from '../../ai/domain/provider-id';

/** The key of one embedding call and, on the platform's key, its hold on the owner's plan. */
export interface EmbeddingCallKey {
  readonly apiKey: string;
  /** Whether it is the owner's own key (never metered). */
  readonly ownKey: boolean;
  /**
   * Records what the call used on the owner's plan (the provider's count when it gave one, else the
   * estimate) and releases the hold. Called once, after the call, whether it worked or not.
   */
  settle(outcome: { ok: boolean; tokens: number }): Promise<void>;
}

/**
 * Which key embeds on an owner's behalf, by the chat's rules (SPEC 2.5, 8): the owner's own key first
 * (never metered); otherwise the platform's key on a plan that includes it, counted against the plan's
 * tokens like a chat turn. The key lives for one call and is never stored or queued.
 */
export interface EmbeddingKeySource {
  /**
   * Whether a call could run now, and with which key, holding nothing: the owner's own key when saved,
   * else the platform's; null when there is neither. PaymentRequiredError when the owner's plan does
   * not include platform usage and there is no own key.
   */
  keyFor(ownerId: string, provider: ProviderId): Promise<string | null>;
  /**
   * The key for one call of about `estimatedTokens`, which are held on the owner's plan when the key is
   * the platform's; null when there is no key. PaymentRequiredError as `keyFor`, and when the plan's
   * tokens are used up.
   */
  open(ownerId: string, provider: ProviderId, estimatedTokens: number): Promise<EmbeddingCallKey | null>;
}
