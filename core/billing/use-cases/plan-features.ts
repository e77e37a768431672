import type { PlanFeatures } from '../../branding/ports/plan-features.port';
import { currentPlan, type CurrentPlanDeps } from './current-plan';

/** Plan-dependent features read from the owner's current plan (a lapsed subscription counts as Free). */
export class SubscriptionPlanFeatures implements PlanFeatures {
  constructor(private readonly deps: CurrentPlanDeps) {}

  async mayHideAttribution(ownerId: string): Promise<boolean> {
    const { entitlements, exempt } = await currentPlan(this.deps, ownerId);
    return exempt || entitlements.plan.tier !== 'free';
  }
}
