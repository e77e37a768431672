import type { PlanCatalog } from '../domain/plans';
import { toPlanView, type PlanView } from '../domain/usage-view';

/** The plans on offer, with prices, overage rates and limits (SPEC 8, or this install's PLANS_FILE). */
export class ListPlansUseCase {
  constructor(private readonly deps: { plans: PlanCatalog }) {}

  execute(): PlanView[] {
    return this.deps.plans.all().map(toPlanView);
  }
}
