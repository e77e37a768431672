import type { Clock } from '../../shared/clock.port';
import { NotFoundError } from '../../shared/errors';
import type { BillingPeriod } from '../domain/billing-period';
import { exemptEntitlements, type Entitlements, type PlanCatalog } from '../domain/plans';
import { currentPeriod, type Subscription } from '../domain/subscription';
import type { SubscriptionRepository } from '../ports/subscription-repository.port';

export interface CurrentPlan {
  subscription: Subscription;
  entitlements: Entitlements;
  period: BillingPeriod;
  /** The account is the platform's admin: no plan limit holds it (its entitlements are unlimited). */
  exempt: boolean;
  /** Payments are configured on this install: a plan can be bought, so "upgrade" is a way to lift a limit. */
  payments: boolean;
}

/** Who runs the platform: its admins (stored role or ADMIN_EMAILS). */
export interface PlatformAdmins {
  isAdmin(userId: string): Promise<boolean>;
}

export type CurrentPlanDeps = {
  subscriptions: SubscriptionRepository;
  clock: Clock;
  plans: PlanCatalog;
  /** The platform's admins; unset, nobody is exempt from the plans. */
  admins?: PlatformAdmins;
  /** Whether payments (Stripe) are configured; unset counts as not (limits then never promise an upgrade). */
  payments?: boolean;
};

/**
 * The user's subscription (the install's default plan unless changed), what it allows, and the billing period
 * now running. The one place plan limits are decided: every limit (applications, API keys, messages, tokens,
 * platform keys, plan features) reads its entitlements here, and a platform admin's are unlimited, so
 * plans are the operator's business model, never a limit on the operator.
 */
export async function currentPlan(deps: CurrentPlanDeps, userId: string): Promise<CurrentPlan> {
  const subscription = await deps.subscriptions.ensure(userId);
  if (!subscription) throw new NotFoundError('User');
  const exempt = (await deps.admins?.isAdmin(userId)) ?? false;
  const entitlements = deps.plans.entitlementsOf(subscription.plan, subscription.status);
  return {
    subscription,
    entitlements: exempt ? exemptEntitlements(entitlements) : entitlements,
    period: currentPeriod(subscription, deps.clock.now()),
    exempt,
    payments: deps.payments ?? false,
  };
}
