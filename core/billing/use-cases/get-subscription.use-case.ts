import type { Actor } from '../../shared/actor';
import type { PlanTier, SubscriptionStatus } from '../domain/plans';
import type { BillingAccountRepository } from '../ports/billing-account-repository.port';
import { currentPlan, type CurrentPlanDeps } from './current-plan';

export interface SubscriptionDetails {
  plan: PlanTier;
  status: SubscriptionStatus;
  /** The plan whose rules apply now (Free while canceled or incomplete). */
  effectivePlan: PlanTier;
  overageAllowed: boolean;
  period: { start: string; end: string };
  /** Whether the user has a customer and a subscription at the payment processor. */
  billing: { customer: boolean; subscription: boolean };
}

/** `GET /api/billing/subscription`: the caller's subscription as stored (it follows the processor's events). */
export class GetSubscriptionUseCase {
  constructor(private readonly deps: CurrentPlanDeps & { accounts: BillingAccountRepository }) {}

  async execute(actor: Actor): Promise<SubscriptionDetails> {
    const [{ subscription, entitlements, period }, account] = await Promise.all([currentPlan(this.deps, actor.userId), this.deps.accounts.findByUser(actor.userId)]);
    return {
      plan: subscription.plan,
      status: subscription.status,
      effectivePlan: entitlements.plan.tier,
      overageAllowed: entitlements.overageAllowed,
      period: { start: period.start.toISOString(), end: period.end.toISOString() },
      billing: { customer: account !== null, subscription: account?.subscriptionId != null },
    };
  }
}
