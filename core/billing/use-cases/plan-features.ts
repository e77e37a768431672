import type { PlanFeatures } from '../../branding/ports/plan-features.port';
import { currentPlan, type CurrentPlanDeps } from './current-plan';
import { raisePlan } from './quota-messages';

/** Plan-dependent features read from the owner's current plan (a lapsed subscription counts as Free). */
export class SubscriptionPlanFeatures implements PlanFeatures {
  constructor(private readonly deps: CurrentPlanDeps) {}

  async mayHideAttribution(ownerId: string): Promise<boolean> {
    const { entitlements, exempt } = await currentPlan(this.deps, ownerId);
    return exempt || entitlements.plan.tier !== 'free';
  }

  async attributionRefusal(ownerId: string): Promise<string> {
    const current = await currentPlan(this.deps, ownerId);
    return `Hiding the attribution line needs a paid plan (Starter or above). To hide it, ${raisePlan(current, 'own')}.`;
  }
}
