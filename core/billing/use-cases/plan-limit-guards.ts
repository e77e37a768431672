import { PaymentRequiredError } from '../../shared/errors';
import type { OwnedResources } from '../ports/owned-resources.port';
import { currentPlan, type CurrentPlanDeps } from './current-plan';

/**
 * The application and API-key limits of the owner's plan, checked before one is created: a 402 that
 * names the limit. The check reads a count, so creations racing each other at the limit may pass it
 * by the few in flight; the chat quota, which costs money, is enforced atomically instead.
 */
export class PlanLimitGuards {
  constructor(private readonly deps: CurrentPlanDeps & { owned: OwnedResources }) {}

  async applications(ownerId: string): Promise<void> {
    const { entitlements } = await currentPlan(this.deps, ownerId);
    const limit = entitlements.limits.applications;
    if (limit !== null && (await this.deps.owned.applications(ownerId)) >= limit) {
      throw new PaymentRequiredError(`The ${entitlements.plan.name} plan allows ${limit} applications; delete one or upgrade your plan to create more`);
    }
  }

  async apiKeys(ownerId: string): Promise<void> {
    const { entitlements } = await currentPlan(this.deps, ownerId);
    const limit = entitlements.limits.apiKeys;
    if (limit !== null && (await this.deps.owned.apiKeys(ownerId)) >= limit) {
      throw new PaymentRequiredError(`The ${entitlements.plan.name} plan allows ${limit} API keys; revoke one or upgrade your plan to create more`);
    }
  }
}
