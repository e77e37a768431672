import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ConflictError, ValidationError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import { isPaidTier, PAID_TIERS, type HostedSession } from '../domain/payments';
import { currentPlan, type CurrentPlanDeps } from './current-plan';
import { ensurePaymentAccount, type PaymentAccountDeps } from './payment-accounts';

const schema = yup.object({
  plan: str().required('plan is required').oneOf([...PAID_TIERS], `plan must be one of ${PAID_TIERS.join(', ')} (Free needs no subscription)`),
});

/**
 * `POST /api/billing/subscribe { plan }`: a Checkout Session for a paid plan. Nothing changes here: the
 * plan starts when the processor reports the checkout completed (the webhook). A user who already pays
 * changes plan in the customer portal, so one user never holds two subscriptions.
 */
export class SubscribeUseCase {
  constructor(private readonly deps: CurrentPlanDeps & PaymentAccountDeps) {}

  async execute(actor: Actor, input: unknown): Promise<{ url: string; sessionId: string }> {
    this.deps.gateway.assertAvailable();
    const body = await validate(schema, input);
    const plan = body.plan;
    if (!isPaidTier(plan)) throw ValidationError.field('plan', `plan must be one of ${PAID_TIERS.join(', ')}`);
    if (!this.deps.gateway.sells(plan)) throw ValidationError.field('plan', `The ${plan} plan is not sold on this install`);
    const { subscription, entitlements } = await currentPlan(this.deps, actor.userId);
    if (entitlements.plan.tier === plan) throw new ConflictError(`You are already on the ${entitlements.plan.name} plan`);
    const account = await ensurePaymentAccount(this.deps, actor.userId);
    if (account.subscriptionId && subscription.status !== 'canceled' && subscription.status !== 'incomplete') {
      throw new ConflictError('You already have a paid subscription: change its plan in the customer portal (POST /api/billing/portal)');
    }
    const session: HostedSession = await this.deps.gateway.subscriptionCheckout({ customerId: account.customerId, userId: actor.userId, plan });
    return { url: session.url, sessionId: session.id };
  }
}
