import type { ProviderId } from '../../ai/domain/provider-id';
import type { UsageLedger } from '../../billing/ports/usage-ledger.port';
import { currentPlan, type CurrentPlan, type CurrentPlanDeps } from '../../billing/use-cases/current-plan';
import { platformKeysRefusal, quotaExceededRefusal } from '../../billing/use-cases/quota-messages';
import type { ProviderKeyRepository } from '../../provider-keys/ports/provider-key-repository.port';
import { openProviderKey } from '../../provider-keys/use-cases/open-provider-key';
import type { SecretBox } from '../../shared/secret-box.port';
import type { EmbeddingCallKey, EmbeddingKeySource } from '../ports/embedding-key-source.port';

export type OwnerEmbeddingKeysDeps = CurrentPlanDeps & {
  keys: ProviderKeyRepository;
  secretBox: SecretBox;
  /** The owners' plan usage, where platform-key embedding tokens are counted like chat tokens. */
  usage: UsageLedger;
  /** PROVIDER_X_API_KEY, when the platform has one. */
  platformKey(provider: ProviderId): string | undefined;
};

type Choice = { ownKey: string } | { platformKey: string; plan: CurrentPlan } | null;

/**
 * Embedding keys by the chat's rules (SPEC 2.5, 8): the owner's active own key first, never metered
 * (its tokens are recorded apart, as own-key chat tokens are);
 * otherwise the platform's key, refused with a 402 on a plan without platform usage (Free), and on a
 * paid plan counted against the owner's tokens: the estimate is held before the call (refused with a
 * 402 when the plan's tokens are used up and it allows no overage) and settled with what was used.
 * An embedding call counts tokens, never a message.
 */
export class OwnerEmbeddingKeys implements EmbeddingKeySource {
  constructor(private readonly deps: OwnerEmbeddingKeysDeps) {}

  async keyFor(ownerId: string, provider: ProviderId): Promise<string | null> {
    const choice = await this.choose(ownerId, provider);
    return choice === null ? null : 'ownKey' in choice ? choice.ownKey : choice.platformKey;
  }

  async open(ownerId: string, provider: ProviderId, estimatedTokens: number): Promise<EmbeddingCallKey | null> {
    const choice = await this.choose(ownerId, provider);
    if (choice === null) return null;
    if ('ownKey' in choice) return { apiKey: choice.ownKey, ownKey: true, settle: this.recordOwnKeyTokens(ownerId) };

    const { entitlements, period } = choice.plan;
    const included = entitlements.limits.includedTokens;
    const tokens = Math.max(0, Math.ceil(estimatedTokens));
    const held = await this.deps.usage.reserve({
      userId: ownerId,
      period,
      tokens,
      tokenLimit: entitlements.overageAllowed ? null : included,
      messageLimit: null,
      messages: 0,
    });
    if (!held.ok) throw quotaExceededRefusal('tokens', choice.plan, provider);
    let settled = false;
    return {
      apiKey: choice.platformKey,
      ownKey: false,
      settle: async (outcome) => {
        if (settled) return;
        settled = true;
        await this.deps.usage.settle({
          userId: ownerId,
          period,
          reservedTokens: tokens,
          ...(held.holdId ? { holdId: held.holdId } : {}),
          usedTokens: Math.max(0, outcome.tokens),
          ok: outcome.ok,
          ownKey: false,
          includedTokens: included,
          messages: 0,
        });
      },
    };
  }

  /**
   * An own key's tokens are never metered, but the usage view shows them apart (`ownKeyTokens`), as it
   * does for chat on an own key: recorded after the call, with no hold and no limit.
   */
  private recordOwnKeyTokens(ownerId: string): EmbeddingCallKey['settle'] {
    let settled = false;
    return async (outcome) => {
      const tokens = Math.max(0, Math.round(outcome.tokens));
      if (settled || tokens === 0) return;
      settled = true;
      const { period } = await currentPlan(this.deps, ownerId);
      // A hold of nothing, which also opens the period's usage row if this is its first call.
      await this.deps.usage.reserve({ userId: ownerId, period, tokens: 0, tokenLimit: null, messageLimit: null, messages: 0 });
      await this.deps.usage.settle({ userId: ownerId, period, reservedTokens: 0, usedTokens: tokens, ok: true, ownKey: true, includedTokens: null, messages: 0 });
    };
  }

  private async choose(ownerId: string, provider: ProviderId): Promise<Choice> {
    const stored = await this.deps.keys.find(ownerId, provider);
    if (stored?.isActive) {
      const key = openProviderKey(this.deps.secretBox, stored);
      await this.deps.keys.markUsed(ownerId, provider, this.deps.clock.now());
      return { ownKey: key };
    }
    const plan = await currentPlan(this.deps, ownerId);
    if (!plan.entitlements.platformKeys) {
      throw platformKeysRefusal(plan, provider);
    }
    const platform = this.deps.platformKey(provider);
    return platform ? { platformKey: platform, plan } : null;
  }
}

/** The platform's keys alone, unmetered: for apps composed without provider keys and plans. */
export function platformEmbeddingKeys(platformKey: (provider: ProviderId) => string | undefined): EmbeddingKeySource {
  return {
    keyFor: async (_ownerId, provider) => platformKey(provider) ?? null,
    open: async (_ownerId, provider) => {
      const apiKey = platformKey(provider);
      return apiKey ? { apiKey, ownKey: false, settle: async () => {} } : null;
    },
  };
}
