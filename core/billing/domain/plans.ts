/** Plan tiers and subscription statuses (SPEC 2.11). */
export const PLAN_TIERS = ['free', 'starter', 'pro', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'trialing', 'incomplete'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const isPlanTier = (value: unknown): value is PlanTier => typeof value === 'string' && (PLAN_TIERS as readonly string[]).includes(value);

/** `null` means unlimited. */
export interface PlanLimits {
  /** Tokens per billing period on the platform's keys; own keys never count against it. */
  includedTokens: number | null;
  applications: number | null;
  /** Chat messages per billing period, whichever key answers them. */
  messagesPerMonth: number | null;
  apiKeys: number | null;
}

export interface Plan {
  tier: PlanTier;
  name: string;
  priceUsdPerMonth: number;
  /** Whether chats may run on the platform's provider keys (SPEC 8: not on Free). */
  platformKeys: boolean;
  /** USD per 1,000 tokens past the included tokens; null when the plan has no overage billing. */
  overageUsdPer1k: number | null;
  limits: PlanLimits;
}

/**
 * The plans when PLANS_FILE sets none. SPEC 8 gives prices, included tokens and overage rates. The
 * application, message and API-key limits are this platform's choice (the spec only says they exist):
 * generous enough that each tier is usable for its audience, small enough on Free that a free account
 * cannot be used as a bulk relay. A self-hosted install may set its own (`plan-settings.ts`).
 */
export const DEFAULT_PLANS: Readonly<Record<PlanTier, Plan>> = {
  free: {
    tier: 'free',
    name: 'Free',
    priceUsdPerMonth: 0,
    platformKeys: false,
    overageUsdPer1k: null,
    limits: { includedTokens: 0, applications: 3, messagesPerMonth: 1_000, apiKeys: 2 },
  },
  starter: {
    tier: 'starter',
    name: 'Starter',
    priceUsdPerMonth: 29,
    platformKeys: true,
    overageUsdPer1k: 0.001,
    limits: { includedTokens: 100_000, applications: 10, messagesPerMonth: 10_000, apiKeys: 10 },
  },
  pro: {
    tier: 'pro',
    name: 'Pro',
    priceUsdPerMonth: 99,
    platformKeys: true,
    overageUsdPer1k: 0.0008,
    limits: { includedTokens: 500_000, applications: 50, messagesPerMonth: 100_000, apiKeys: 50 },
  },
  enterprise: {
    tier: 'enterprise',
    name: 'Enterprise',
    priceUsdPerMonth: 499,
    platformKeys: true,
    // "custom" in SPEC 8: negotiated outside the platform, and nothing is past an unlimited allowance.
    overageUsdPer1k: null,
    limits: { includedTokens: null, applications: null, messagesPerMonth: null, apiKeys: null },
  },
};

/** What a subscription may do right now: its plan, adjusted by its status. */
export interface Entitlements {
  plan: Plan;
  platformKeys: boolean;
  /** True when tokens past the included ones are billed as overage; false when they are refused. */
  overageAllowed: boolean;
  limits: PlanLimits;
}

/**
 * A platform admin's entitlements: the plan's name and features, with no limit (applications, API keys, messages,
 * tokens) and the platform's own provider keys, which are the operator's. Nothing is billed as overage.
 */
export function exemptEntitlements(e: Entitlements): Entitlements {
  return { ...e, platformKeys: true, overageAllowed: false, limits: { includedTokens: null, applications: null, messagesPerMonth: null, apiKeys: null } };
}

/** The plans this install offers: the defaults, or those of PLANS_FILE. One per tier, always all four. */
export class PlanCatalog {
  private readonly plans: Readonly<Record<PlanTier, Plan>>;

  constructor(plans: Readonly<Record<PlanTier, Plan>> = DEFAULT_PLANS) {
    this.plans = plans;
  }

  get(tier: PlanTier): Plan {
    return this.plans[tier];
  }

  /** Every plan, cheapest tier first. */
  all(): Plan[] {
    return PLAN_TIERS.map((tier) => this.plans[tier]);
  }

  /**
   * A canceled or never-paid (`incomplete`) subscription falls back to Free. Overage is credit, so it
   * is extended only to `active` subscriptions: while trialing or past due, the included tokens are a
   * hard limit.
   */
  entitlementsOf(tier: PlanTier, status: SubscriptionStatus): Entitlements {
    const plan = status === 'canceled' || status === 'incomplete' ? this.plans.free : this.plans[tier];
    return {
      plan,
      platformKeys: plan.platformKeys,
      overageAllowed: status === 'active' && plan.overageUsdPer1k !== null,
      limits: plan.limits,
    };
  }
}

/** USD for overage tokens at the plan's rate, rounded to a millionth of a dollar. */
export function overageCostUsd(plan: Plan, overageTokens: number): number {
  if (plan.overageUsdPer1k === null || overageTokens <= 0) return 0;
  return Math.round((overageTokens / 1000) * plan.overageUsdPer1k * 1e6) / 1e6;
}
