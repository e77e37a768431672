import type { BillingPeriod } from './billing-period';
import { overageCostUsd, type Entitlements, type Plan, type PlanLimits, type PlanTier, type SubscriptionStatus } from './plans';
import type { UsageCounters } from './subscription';

export interface PlanView {
  id: PlanTier;
  name: string;
  priceUsdPerMonth: number;
  platformKeys: boolean;
  overageUsdPer1k: number | null;
  limits: PlanLimits;
}

export const toPlanView = (plan: Plan): PlanView => ({
  id: plan.tier,
  name: plan.name,
  priceUsdPerMonth: plan.priceUsdPerMonth,
  platformKeys: plan.platformKeys,
  overageUsdPer1k: plan.overageUsdPer1k,
  limits: { ...plan.limits },
});


/** `GET /api/billing/usage`: the subscription, its period, its limits and what has been used of them. */
export interface UsageView {
  plan: PlanTier;
  status: SubscriptionStatus;
  /** The plan whose limits apply now (Free while canceled or incomplete). */
  effectivePlan: PlanTier;
  overageAllowed: boolean;
  /** Chats without an own key may run on the platform's provider keys. */
  platformKeys: boolean;
  /** The account is the platform's admin: no plan limit holds it (every limit is null). */
  exempt: boolean;
  /** Payments are configured on this install: plans can be bought (the console shows prices and Subscribe only then). */
  payments: boolean;
  period: { start: string; end: string };
  limits: PlanLimits;
  usage: {
    tokensUsed: number;
    tokensReserved: number;
    /** Included platform tokens left this period; null when unlimited. */
    tokensRemaining: number | null;
    overageTokens: number;
    overageCostUsd: number;
    ownKeyTokens: number;
    messages: number;
    applications: number;
    apiKeys: number;
  };
}

export function toUsageView(input: {
  plan: PlanTier;
  status: SubscriptionStatus;
  entitlements: Entitlements;
  exempt: boolean;
  payments: boolean;
  period: BillingPeriod;
  counters: UsageCounters;
  applications: number;
  apiKeys: number;
}): UsageView {
  const { entitlements: e, counters: c } = input;
  const included = e.limits.includedTokens;
  return {
    plan: input.plan,
    status: input.status,
    effectivePlan: e.plan.tier,
    overageAllowed: e.overageAllowed,
    platformKeys: e.platformKeys,
    exempt: input.exempt,
    payments: input.payments,
    period: { start: input.period.start.toISOString(), end: input.period.end.toISOString() },
    limits: { ...e.limits },
    usage: {
      tokensUsed: c.tokensUsed,
      tokensReserved: c.tokensReserved,
      tokensRemaining: included === null ? null : Math.max(0, included - c.tokensUsed),
      overageTokens: c.overageTokens,
      overageCostUsd: overageCostUsd(e.plan, c.overageTokens),
      ownKeyTokens: c.ownKeyTokens,
      messages: c.messagesUsed,
      applications: input.applications,
      apiKeys: input.apiKeys,
    },
  };
}
