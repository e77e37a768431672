import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import { noUnitOfWork, type UnitOfWork } from '../../shared/unit-of-work.port';
import { ForbiddenError, NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { str, validate } from '../../shared/validation';
import { PLAN_TIERS, SUBSCRIPTION_STATUSES, type PlanCatalog, type PlanTier, type SubscriptionStatus } from '../domain/plans';
import { currentPeriod } from '../domain/subscription';
import type { SubscriptionRepository } from '../ports/subscription-repository.port';

const schema = yup.object({
  plan: str().required('plan is required').oneOf([...PLAN_TIERS], `plan must be one of ${PLAN_TIERS.join(', ')}`),
  status: str().oneOf([...SUBSCRIPTION_STATUSES], `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`),
});

export interface SubscriptionView {
  userId: string;
  plan: PlanTier;
  status: SubscriptionStatus;
  effectivePlan: PlanTier;
  period: { start: string; end: string };
}

/**
 * Admin: puts a user on a plan (status `active` unless given) and starts a fresh billing period, so
 * the new allowance applies in full from now. How plans change on an install without Stripe; with it,
 * paid plans follow Stripe's events (`HandlePaymentWebhookUseCase`) and this is for exceptions.
 */
export class ChangePlanUseCase {
  constructor(private readonly deps: { subscriptions: SubscriptionRepository; clock: Clock; plans: PlanCatalog; events?: EventPublisher; unitOfWork?: UnitOfWork }) {}

  async execute(userId: string, input: unknown, actor: Actor): Promise<SubscriptionView> {
    if (actor.role !== 'admin') throw new ForbiddenError('This requires the admin role');
    const body = await validate(schema, input);
    if (!isUuid(userId)) throw new NotFoundError('User');
    const now = this.deps.clock.now();
    // The change and its `subscription.updated` event commit together.
    const saved = await (this.deps.unitOfWork ?? noUnitOfWork).run(async () => {
      const before = await this.deps.subscriptions.ensure(userId);
      const after = await this.deps.subscriptions.change(userId, { plan: body.plan as PlanTier, status: (body.status ?? 'active') as SubscriptionStatus, startedAt: now });
      if (before && after && (before.plan !== after.plan || before.status !== after.status)) {
        await this.deps.events?.publish({
          type: 'subscription.updated',
          ownerId: userId,
          data: { plan: after.plan, status: after.status, previousPlan: before.plan, previousStatus: before.status },
        });
      }
      return after;
    });
    if (!saved) throw new NotFoundError('User');
    const period = currentPeriod(saved, now);
    return {
      userId: saved.userId,
      plan: saved.plan,
      status: saved.status,
      effectivePlan: this.deps.plans.entitlementsOf(saved.plan, saved.status).plan.tier,
      period: { start: period.start.toISOString(), end: period.end.toISOString() },
    };
  }
}
