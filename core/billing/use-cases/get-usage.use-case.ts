import type { Actor } from '../../shared/actor';
import { toUsageView, type UsageView } from '../domain/usage-view';
import type { OwnedResources } from '../ports/owned-resources.port';
import type { UsageLedger } from '../ports/usage-ledger.port';
import { currentPlan, type CurrentPlanDeps } from './current-plan';

/** The caller's plan, billing period, limits and usage so far. */
export class GetUsageUseCase {
  constructor(private readonly deps: CurrentPlanDeps & { usage: UsageLedger; owned: OwnedResources }) {}

  async execute(actor: Actor): Promise<UsageView> {
    const { subscription, entitlements, period, exempt, payments } = await currentPlan(this.deps, actor.userId);
    const [counters, applications, apiKeys] = await Promise.all([
      this.deps.usage.current(actor.userId, period),
      this.deps.owned.applications(actor.userId),
      this.deps.owned.apiKeys(actor.userId),
    ]);
    return toUsageView({ plan: subscription.plan, status: subscription.status, entitlements, exempt, payments, period, counters, applications, apiKeys });
  }
}
