import { allPlanViews, type PlanView } from '../domain/usage-view';

/** The plans on offer, with prices, overage rates and limits (SPEC 8). */
export class ListPlansUseCase {
  execute(): PlanView[] {
    return allPlanViews();
  }
}
