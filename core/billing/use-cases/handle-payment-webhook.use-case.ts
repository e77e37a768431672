import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { Clock } from '../../shared/clock.port';
import { noUnitOfWork, type UnitOfWork } from '../../shared/unit-of-work.port';
import { subscriptionStatusOf, type PaymentEvent } from '../domain/payments';
import type { PlanCatalog, PlanTier, SubscriptionStatus } from '../domain/plans';
import { currentPeriod, type Subscription } from '../domain/subscription';
import type { BillingAccount, BillingAccountRepository } from '../ports/billing-account-repository.port';
import type { MarketplaceLicenses } from '../ports/marketplace-licenses.port';
import type { PaymentGateway } from '../ports/payment-gateway.port';
import type { SubscriptionRepository } from '../ports/subscription-repository.port';

/** What became of a webhook event (the answer's body; the processor only reads the 2xx). */
export interface WebhookOutcome {
  received: true;
  /** `applied`; `duplicate` (its id was applied before); `stale` (a later event was applied first); `ignored`. */
  result: 'applied' | 'duplicate' | 'stale' | 'ignored';
  reason?: string;
}

/** A renewal moves the processor's period start by about a month; a few seconds of drift are not one. */
const PERIOD_DRIFT_MS = 3_600_000;

/**
 * `POST /api/billing/webhook`: applies the processor's subscription events (SPEC 3: checkout completed,
 * subscription updated and deleted, payment failed) to the user's subscription (SPEC 2.11 statuses), and
 * issues marketplace licenses when their checkout completed.
 *
 * Exactly once: the event id is stored in the same transaction as the change, under a unique key, so a
 * second delivery (a retry, or the same event reaching another instance at the same moment: the second
 * insert waits for the first transaction and then finds the id) changes nothing. Out of order: the
 * processor's `created` time of the last applied subscription event is kept, and an older event is
 * recorded but not applied. Plan or status changes publish `subscription.updated` in the transaction.
 */
export class HandlePaymentWebhookUseCase {
  constructor(
    private readonly deps: {
      gateway: PaymentGateway;
      accounts: BillingAccountRepository;
      subscriptions: SubscriptionRepository;
      plans: PlanCatalog;
      licenses: MarketplaceLicenses;
      clock: Clock;
      events?: EventPublisher;
      unitOfWork?: UnitOfWork;
    },
  ) {}

  /** The request header the gateway's webhook signature arrives in. */
  get signatureHeader(): string {
    return this.deps.gateway.signatureHeader ?? 'stripe-signature';
  }

  async execute(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    this.deps.gateway.assertAvailable();
    const event = this.deps.gateway.parseWebhook(rawBody, signature);
    return (this.deps.unitOfWork ?? noUnitOfWork).run(async () => {
      if (!(await this.deps.accounts.recordEvent(event.id, event.type))) return { received: true, result: 'duplicate' } as const;
      return this.apply(event);
    });
  }

  private async apply(event: PaymentEvent): Promise<WebhookOutcome> {
    if (event.kind === 'ignored') return ignored(`event type ${event.type} is not handled`);
    const account = event.customerId ? await this.deps.accounts.findByCustomer(event.customerId) : null;
    if (!account) return ignored('the customer is not a user of this platform');
    switch (event.kind) {
      case 'checkout.completed':
        return this.checkoutCompleted(account, event);
      case 'subscription.changed':
        return this.subscriptionChanged(account, event);
      case 'payment.failed':
        return this.paymentFailed(account, event);
    }
  }

  private async checkoutCompleted(account: BillingAccount, event: Extract<PaymentEvent, { kind: 'checkout.completed' }>): Promise<WebhookOutcome> {
    if (event.userId !== null && event.userId !== account.userId) return ignored('the session was opened for another user');
    if (event.purpose === 'license') {
      if (!event.itemId || !event.paid) return ignored('the license checkout is not paid');
      await this.deps.licenses.issueLicense({ userId: account.userId, itemId: event.itemId, checkoutSessionId: event.sessionId });
      return { received: true, result: 'applied' };
    }
    if (event.purpose !== 'subscription' || !event.plan || event.plan === 'free') return ignored('the session sold no plan of this install');
    if (!(await this.deps.accounts.advance(account.userId, { at: event.created, subscriptionId: event.subscriptionId }))) return stale();
    // A subscription's checkout completes once its first invoice is paid (or it needs no payment now).
    await this.change(account.userId, { plan: event.plan, status: event.paid ? 'active' : 'incomplete', startedAt: event.created });
    return { received: true, result: 'applied' };
  }

  private async subscriptionChanged(account: BillingAccount, event: Extract<PaymentEvent, { kind: 'subscription.changed' }>): Promise<WebhookOutcome> {
    // Events of a subscription the user replaced since (an old one ending) do not touch the current one.
    if (account.subscriptionId && account.subscriptionId !== event.subscriptionId) return ignored('the event is about another subscription of the customer');
    if (!(await this.deps.accounts.advance(account.userId, { at: event.created, subscriptionId: event.subscriptionId }))) return stale();
    const before = await this.deps.subscriptions.ensure(account.userId);
    if (!before) return ignored('the user no longer exists');
    const now = this.deps.clock.now();
    if (event.deleted) {
      // Back to Free rules from now, in a fresh period.
      await this.change(account.userId, { plan: before.plan, status: 'canceled', startedAt: now });
      return { received: true, result: 'applied' };
    }
    const plan: PlanTier = event.plan ?? before.plan;
    const status = subscriptionStatusOf(event.status);
    await this.change(account.userId, { plan, status, startedAt: renewedAnchor(before, event.currentPeriodStart, now) });
    return { received: true, result: 'applied' };
  }

  private async paymentFailed(account: BillingAccount, event: Extract<PaymentEvent, { kind: 'payment.failed' }>): Promise<WebhookOutcome> {
    if (account.subscriptionId && event.subscriptionId && account.subscriptionId !== event.subscriptionId) return ignored('the invoice is of another subscription of the customer');
    if (!(await this.deps.accounts.advance(account.userId, { at: event.created }))) return stale();
    const before = await this.deps.subscriptions.ensure(account.userId);
    if (!before) return ignored('the user no longer exists');
    if (before.plan === 'free' || (before.status !== 'active' && before.status !== 'trialing')) return ignored('no paying subscription to put past due');
    // Past due: included tokens become a hard limit (entitlementsOf); the period goes on.
    await this.change(account.userId, { plan: before.plan, status: 'past_due', startedAt: before.startedAt });
    return { received: true, result: 'applied' };
  }

  /** Stores the change and announces it (`subscription.updated`, EVENTS.md) when plan or status moved. */
  private async change(userId: string, next: { plan: PlanTier; status: SubscriptionStatus; startedAt: Date }): Promise<void> {
    const before = await this.deps.subscriptions.ensure(userId);
    const after = await this.deps.subscriptions.change(userId, next);
    if (!before || !after || (before.plan === after.plan && before.status === after.status)) return;
    await this.deps.events?.publish({
      type: 'subscription.updated',
      ownerId: userId,
      data: { plan: after.plan, status: after.status, previousPlan: before.plan, previousStatus: before.status },
    });
  }
}

const ignored = (reason: string): WebhookOutcome => ({ received: true, result: 'ignored', reason });
const stale = (): WebhookOutcome => ({ received: true, result: 'stale', reason: 'a later event of this subscription was applied already' });

/**
 * The billing period's anchor after a subscription update: the processor's period start when it has moved
 * on from ours (a renewal: usage starts again from zero), else ours unchanged.
 */
function renewedAnchor(current: Subscription, processorPeriodStart: Date | null, now: Date): Date {
  if (!processorPeriodStart) return current.startedAt;
  const ours = currentPeriod(current, now).start;
  return Math.abs(processorPeriodStart.getTime() - ours.getTime()) > PERIOD_DRIFT_MS ? processorPeriodStart : current.startedAt;
}
