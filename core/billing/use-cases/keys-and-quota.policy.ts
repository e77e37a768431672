import { resolveModelSettings } from '../../ai/domain/model-settings';
import { isProviderId, type ProviderId } from '../../ai/domain/provider-id';
import type { ChatOutcome, ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { ProviderKeyRepository } from '../../provider-keys/ports/provider-key-repository.port';
import { openProviderKey } from '../../provider-keys/use-cases/open-provider-key';
import type { TeamTurnKeys } from '../../teams/use-cases/team-provider-keys.use-cases';
import type { SecretBox } from '../../shared/secret-box.port';
import { estimateTokens } from '../../shared/tokens';
import type { BillingPeriod } from '../domain/billing-period';
import type { UsageLedger } from '../ports/usage-ledger.port';
import { currentPlan, type CurrentPlan, type CurrentPlanDeps } from './current-plan';
import { platformKeysRefusal, quotaExceededRefusal } from './quota-messages';

export type KeysAndQuotaDeps = CurrentPlanDeps & {
  keys: ProviderKeyRepository;
  secretBox: SecretBox;
  usage: UsageLedger;
  /** The provider of a turn that names none; the engine's default. */
  defaultProvider?: ProviderId;
  /** A team application's default provider and shared provider keys (the teams area). */
  teamKeys?: Pick<TeamTurnKeys, 'defaultProvider' | 'keyFor'>;
};

interface Hold {
  userId: string;
  period: BillingPeriod;
  reservedTokens: number;
  holdId?: string;
  ownKey: boolean;
  includedTokens: number | null;
  /** Under a token limit: the limit, and the further holds of a tool loop's rounds (allowToolRounds). */
  tokenLimit: number | null;
  roundHolds?: { tokens: number; holdId?: string }[];
}

/**
 * Chooses whose key answers a turn and holds its share of the owner's plan (SPEC 2.5, 8): an active
 * own key for the provider is used and bypasses the token quota; otherwise Free is refused with a 402
 * that suggests an own key, and paid plans run on the platform key after reserving the worst case
 * (prompt estimate + maxTokens) in one atomic step. `settle` swaps the hold for the provider's count.
 */
export class KeysAndQuotaPolicy implements ChatPolicy {
  readonly name = 'keys-and-quota';
  // Per-turn state between prepare and settle; the plan object is the turn's identity.
  private readonly holds = new WeakMap<ChatPlan, Hold>();

  constructor(private readonly deps: KeysAndQuotaDeps) {}

  async prepare(turn: ChatTurn, plan: ChatPlan): Promise<void> {
    if (plan.connection) {
      // An owner's own endpoint (docs/connections.md) runs like an own key: a message counted, no token quota.
      await this.hold(turn, plan, await currentPlan(this.deps, turn.ownerId), { tokens: 0, ownKey: true, provider: plan.connection.name as ProviderId });
      plan.usesOwnKey = true;
      return;
    }
    // The engine's own validator: a bad provider or setting is its usual 400, before anything is held.
    const teamId = turn.application.teamId ?? null;
    const teamKeys = teamId ? this.deps.teamKeys : undefined;
    const teamDefault = teamKeys && plan.provider === undefined ? await teamKeys.defaultProvider(teamId!) : null;
    const { provider, settings } = resolveModelSettings(plan.provider ?? teamDefault ?? this.deps.defaultProvider ?? 'provider_a', plan.model, plan.settings);
    if (teamDefault) plan.provider = provider;
    const current = await currentPlan(this.deps, turn.ownerId);
    // A team's own key (with its shared keys setting on) serves its applications like an own key: no quota.
    const teamKey = teamKeys ? await teamKeys.keyFor(teamId!, provider) : null;
    if (teamKey) {
      await this.hold(turn, plan, current, { tokens: 0, ownKey: true, provider });
      plan.apiKey = teamKey;
      plan.usesOwnKey = true;
      return;
    }
    const stored = await this.deps.keys.find(turn.ownerId, provider);
    if (stored?.isActive) {
      const apiKey = openProviderKey(this.deps.secretBox, stored);
      await this.hold(turn, plan, current, { tokens: 0, ownKey: true, provider });
      plan.apiKey = apiKey;
      plan.usesOwnKey = true;
      try {
        await this.deps.keys.markUsed(turn.ownerId, provider, this.deps.clock.now());
      } catch (error) {
        // The runner settles only turns whose preparation finished; this one must give its hold back itself.
        await this.settle(turn, plan, { ok: false });
        throw error;
      }
      return;
    }
    if (!current.entitlements.platformKeys) {
      throw platformKeysRefusal(current, provider);
    }
    const estimate = estimateTokens(turn.content) + estimateTokens(settings.systemPrompt ?? '') + settings.maxTokens;
    await this.hold(turn, plan, current, { tokens: estimate, ownKey: false, provider });
    plan.usesOwnKey = false;
  }

  /**
   * Quota per model round (docs/tools.md): under a token limit, the tool rounds are held before the loop starts, each
   * like the turn's first model call, as many as the plan's tokens left cover; the loop stops there and answers. Own
   * keys and plans without a token limit run every round.
   */
  async allowToolRounds(_turn: ChatTurn, plan: ChatPlan, rounds: number): Promise<number> {
    const hold = this.holds.get(plan);
    if (!hold || hold.ownKey || hold.tokenLimit === null || hold.reservedTokens === 0) return rounds;
    const counters = await this.deps.usage.current(hold.userId, hold.period);
    const left = hold.tokenLimit - counters.tokensUsed - counters.tokensReserved;
    const affordable = Math.min(rounds, Math.max(0, Math.floor(left / hold.reservedTokens)));
    if (affordable === 0) return 0;
    const tokens = hold.reservedTokens * affordable;
    // Atomic like every hold: a turn that took the tokens meanwhile leaves this one without tool rounds.
    const result = await this.deps.usage.reserve({ userId: hold.userId, period: hold.period, tokens, tokenLimit: hold.tokenLimit, messageLimit: null, messages: 0 });
    if (!result.ok) return 0;
    hold.roundHolds = [{ tokens, ...(result.holdId ? { holdId: result.holdId } : {}) }];
    return affordable;
  }

  async settle(_turn: ChatTurn, plan: ChatPlan, outcome: ChatOutcome): Promise<void> {
    const hold = this.holds.get(plan);
    if (!hold) return;
    this.holds.delete(plan);
    // The rounds' holds are given back; the tokens every round used are counted once, below.
    for (const round of hold.roundHolds ?? []) {
      await this.deps.usage.settle({
        userId: hold.userId,
        period: hold.period,
        reservedTokens: round.tokens,
        ...(round.holdId ? { holdId: round.holdId } : {}),
        usedTokens: 0,
        ok: true,
        ownKey: hold.ownKey,
        includedTokens: hold.includedTokens,
        messages: 0,
      });
    }
    // Quota counts the attempt that answered: a turn held on the platform's keys that a fallback or a balance member
    // answered on one of the owner's connections ran on the owner's endpoint, so its tokens are theirs, not the quota's.
    const answeredOnConnection = outcome.ok && outcome.provider !== undefined && !isProviderId(outcome.provider);
    await this.deps.usage.settle({
      userId: hold.userId,
      period: hold.period,
      reservedTokens: hold.reservedTokens,
      ...(hold.holdId ? { holdId: hold.holdId } : {}),
      usedTokens: outcome.ok ? (outcome.usage?.totalTokens ?? 0) : 0,
      ok: outcome.ok,
      ownKey: hold.ownKey || answeredOnConnection,
      includedTokens: hold.includedTokens,
    });
  }

  private async hold(turn: ChatTurn, plan: ChatPlan, current: CurrentPlan, h: { tokens: number; ownKey: boolean; provider: ProviderId }): Promise<void> {
    const { entitlements, period } = current;
    const included = entitlements.limits.includedTokens;
    const tokenLimit = h.ownKey || entitlements.overageAllowed ? null : included;
    const result = await this.deps.usage.reserve({
      userId: turn.ownerId,
      period,
      tokens: h.tokens,
      tokenLimit,
      messageLimit: entitlements.limits.messagesPerMonth,
    });
    if (!result.ok) throw quotaExceededRefusal(result.exceeded, current, h.provider);
    this.holds.set(plan, { userId: turn.ownerId, period, reservedTokens: h.tokens, ...(result.holdId ? { holdId: result.holdId } : {}), ownKey: h.ownKey, includedTokens: included, tokenLimit });
  }
}
