import type { OwnerLimit } from '../../shared/owner-limit';
import { currentPlan, type CurrentPlanDeps } from './current-plan';
import { resourceLimitRefusal } from './quota-messages';

/**
 * The application and API-key limits of the owner's plan, as limits for the repositories to enforce:
 * they count and insert in one step that concurrent creations of one owner take in turn, so the limit
 * holds exactly even under a burst. Past it, a 402 that names the limit and what lifts it; null means unlimited
 * (a platform admin's plan is always unlimited: `currentPlan`).
 */
export class PlanLimitGuards {
  constructor(private readonly deps: CurrentPlanDeps) {}

  /**
   * `callerId` is who asks, when it is not the owner (an Admin placing an application in a team, or making a
   * key of a team's application, whose Owner's plan counts it): the 402 then says it is the team owner's plan
   * that is full, and names no one.
   */
  applications(ownerId: string, callerId?: string): Promise<OwnerLimit | null> {
    return this.limit(ownerId, callerId, 'applications');
  }

  apiKeys(ownerId: string, callerId?: string): Promise<OwnerLimit | null> {
    return this.limit(ownerId, callerId, 'apiKeys');
  }

  private async limit(ownerId: string, callerId: string | undefined, kind: 'applications' | 'apiKeys'): Promise<OwnerLimit | null> {
    const current = await currentPlan(this.deps, ownerId);
    const max = current.entitlements.limits[kind];
    if (max === null) return null;
    const whose = callerId && callerId !== ownerId ? 'team owner' : 'own';
    return { max, exceeded: () => resourceLimitRefusal(current, kind, whose) };
  }
}
