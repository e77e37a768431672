import type { Clock } from '../../shared/clock.port';
import { NotFoundError } from '../../shared/errors';
import type { BillingPeriod } from '../domain/billing-period';
import type { Entitlements, PlanCatalog } from '../domain/plans';
import { currentPeriod, type Subscription } from '../domain/subscription';
import type { SubscriptionRepository } from '../ports/subscription-repository.port';

export interface CurrentPlan {
  subscription: Subscription;
  entitlements: Entitlements;
  period: BillingPeriod;
}

export type CurrentPlanDeps = { subscriptions: SubscriptionRepository; clock: Clock; plans: PlanCatalog };

/** The user's subscription (Free unless changed), what it allows, and the billing period now running. */
export async function currentPlan(deps: CurrentPlanDeps, userId: string): Promise<CurrentPlan> {
  const subscription = await deps.subscriptions.ensure(userId);
  if (!subscription) throw new NotFoundError('User');
  return { subscription, entitlements: deps.plans.entitlementsOf(subscription.plan, subscription.status), period: currentPeriod(subscription, deps.clock.now()) };
}
