import { PaymentRequiredError } from '../../shared/errors';
import type { OwnerLimit } from '../../shared/owner-limit';
import { currentPlan, type CurrentPlanDeps } from './current-plan';

/**
 * The application and API-key limits of the owner's plan, as limits for the repositories to enforce:
 * they count and insert in one step that concurrent creations of one owner take in turn, so the limit
 * holds exactly even under a burst. Past it, a 402 that names the limit; null means unlimited.
 */
export class PlanLimitGuards {
  constructor(private readonly deps: CurrentPlanDeps) {}

  /**
   * `callerId` is who asks, when it is not the owner (an Admin placing an application in a team, or making a
   * key of a team's application, whose Owner's plan counts it): the 402 then says it is the team owner's plan
   * that is full, and names no one.
   */
  applications(ownerId: string, callerId?: string): Promise<OwnerLimit | null> {
    return this.limit(ownerId, callerId, 'applications', 'delete one');
  }

  apiKeys(ownerId: string, callerId?: string): Promise<OwnerLimit | null> {
    return this.limit(ownerId, callerId, 'apiKeys', 'revoke one');
  }

  private async limit(ownerId: string, callerId: string | undefined, kind: 'applications' | 'apiKeys', freeOne: string): Promise<OwnerLimit | null> {
    const { entitlements } = await currentPlan(this.deps, ownerId);
    const max = entitlements.limits[kind];
    if (max === null) return null;
    const what = kind === 'applications' ? 'applications' : 'API keys';
    const message =
      callerId && callerId !== ownerId
        ? `The team owner's plan allows ${max} ${what} and they are all in use; ask the team owner to ${freeOne} or upgrade their plan`
        : `The ${entitlements.plan.name} plan allows ${max} ${what}; ${freeOne} or upgrade your plan to create more`;
    return { max, exceeded: () => new PaymentRequiredError(message) };
  }
}
