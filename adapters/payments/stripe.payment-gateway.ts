import Stripe from 'stripe';
import { isPlanTier, type PlanTier } from '../../core/billing/domain/plans';
import { isPaidTier, type HostedSession, type InvoicePage, type InvoiceSummary, type PaidTier, type PaymentEvent } from '../../core/billing/domain/payments';
import type { PaymentGateway } from '../../core/billing/ports/payment-gateway.port';
import { UpstreamError, ValidationError } from '../../core/shared/errors';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** The recurring price of each paid plan sold. */
  prices: Partial<Record<PaidTier, string>>;
  /** The metered overage price of Starter and Pro (on the meter named `meterEventName`), added to their checkout. */
  overagePrices: Partial<Record<'starter' | 'pro', string>>;
  meterEventName: string;
  /** Where the SDK sends requests (the local fake in tests); unset: Stripe itself. */
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
  /** Where Checkout and the portal send the user back (the dashboard's billing page). */
  returnUrl: string;
}

/** Webhooks older than this are refused (Stripe's own default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The PaymentGateway on the official `stripe` SDK (v23, API 2026-10-28). Subscriptions go through Checkout
 * in `subscription` mode (the plan's price, plus the metered overage price on Starter and Pro), licenses
 * through Checkout in `payment` mode. Overage is reported as Billing Meter Events (`billing.meterEvents`):
 * the SDK no longer has usage records, which Stripe removed with legacy metered prices.
 */
export class StripePaymentGateway implements PaymentGateway {
  /** Stripe signs its webhooks in this header. */
  readonly signatureHeader = 'stripe-signature';
  private readonly stripe: Stripe;
  private readonly planOfPrice = new Map<string, PlanTier>();

  constructor(private readonly settings: StripeSettings) {
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      ...(settings.apiBase ?? {}),
    });
    for (const [plan, price] of Object.entries(settings.prices)) if (price) this.planOfPrice.set(price, plan as PlanTier);
  }

  assertAvailable(): void {}

  sells(plan: PaidTier): boolean {
    return Boolean(this.settings.prices[plan]);
  }

  async createCustomer(input: { userId: string; email: string }): Promise<string> {
    const customer = await this.call(() =>
      this.stripe.customers.create({ email: input.email, metadata: { userId: input.userId } }, { idempotencyKey: `customer-${input.userId}` }),
    );
    return customer.id;
  }

  async subscriptionCheckout(input: { customerId: string; userId: string; plan: PaidTier }): Promise<HostedSession> {
    const price = this.settings.prices[input.plan];
    if (!price) throw ValidationError.field('plan', `The ${input.plan} plan is not sold on this install`);
    const overage = input.plan === 'starter' || input.plan === 'pro' ? this.settings.overagePrices[input.plan] : undefined;
    const metadata = { purpose: 'subscription', userId: input.userId, plan: input.plan };
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        client_reference_id: input.userId,
        line_items: [{ price, quantity: 1 }, ...(overage ? [{ price: overage }] : [])],
        metadata,
        subscription_data: { metadata },
        success_url: `${this.settings.returnUrl}?checkout=success`,
        cancel_url: `${this.settings.returnUrl}?checkout=canceled`,
      }),
    );
    return hosted(session);
  }

  async licenseCheckout(input: { customerId: string; userId: string; itemId: string; name: string; priceCents: number; currency: string; authorId: string }): Promise<HostedSession> {
    const metadata = { purpose: 'license', userId: input.userId, itemId: input.itemId, authorId: input.authorId };
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create({
        mode: 'payment',
        customer: input.customerId,
        client_reference_id: input.userId,
        line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount: input.priceCents, product_data: { name: input.name.slice(0, 250) } } }],
        metadata,
        payment_intent_data: { metadata },
        success_url: `${this.settings.returnUrl}?license=success`,
        cancel_url: `${this.settings.returnUrl}?license=canceled`,
      }),
    );
    return hosted(session);
  }

  async portalSession(customerId: string): Promise<{ url: string }> {
    const session = await this.call(() => this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: this.settings.returnUrl }));
    return { url: session.url };
  }

  async invoices(customerId: string, page: { limit: number; startingAfter?: string }): Promise<InvoicePage> {
    const list = await this.call(() =>
      this.stripe.invoices.list({ customer: customerId, limit: page.limit, ...(page.startingAfter ? { starting_after: page.startingAfter } : {}) }),
    );
    const items = list.data.map(toInvoiceSummary);
    return { items, hasMore: list.has_more, nextCursor: list.has_more && items.length ? items[items.length - 1]!.id : null };
  }

  async reportOverage(input: { customerId: string; tokens: number; identifier: string; at: Date }): Promise<void> {
    await this.call(() =>
      this.stripe.billing.meterEvents.create(
        {
          event_name: this.settings.meterEventName,
          identifier: input.identifier,
          timestamp: Math.floor(input.at.getTime() / 1000),
          payload: { stripe_customer_id: input.customerId, value: String(input.tokens) },
        },
        { idempotencyKey: input.identifier },
      ),
    );
  }

  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent {
    if (!signature) throw ValidationError.field('stripe-signature', 'The Stripe-Signature header is missing');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
    } catch (error) {
      // The SDK says which check failed (no matching signature, timestamp outside the tolerance); never the secret.
      const reason = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'invalid signature';
      throw ValidationError.field('stripe-signature', `The webhook signature could not be verified: ${reason}`);
    }
    return this.toPaymentEvent(event);
  }

  private toPaymentEvent(event: Stripe.Event): PaymentEvent {
    const base = { id: event.id, type: event.type, created: new Date(event.created * 1000) };
    switch (event.type) {
      case 'checkout.session.completed': {
        const s = event.data.object;
        const purpose = s.metadata?.purpose === 'license' ? 'license' : s.mode === 'subscription' ? 'subscription' : 'other';
        const plan = s.metadata?.plan;
        return {
          ...base,
          kind: 'checkout.completed',
          customerId: idOf(s.customer),
          sessionId: s.id,
          purpose,
          subscriptionId: idOf(s.subscription),
          plan: isPlanTier(plan) && isPaidTier(plan) ? plan : null,
          itemId: typeof s.metadata?.itemId === 'string' ? s.metadata.itemId : null,
          userId: typeof s.metadata?.userId === 'string' ? s.metadata.userId : null,
          paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
        };
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const items = sub.items?.data ?? [];
        const plan = items.map((i) => this.planOfPrice.get(i.price?.id ?? '')).find((p) => p !== undefined) ?? null;
        const starts = items.map((i) => i.current_period_start).filter((t): t is number => typeof t === 'number');
        return {
          ...base,
          kind: 'subscription.changed',
          customerId: idOf(sub.customer),
          subscriptionId: sub.id,
          deleted: event.type === 'customer.subscription.deleted',
          status: sub.status,
          plan,
          currentPeriodStart: starts.length ? new Date(Math.max(...starts) * 1000) : null,
        };
      }
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        return { ...base, kind: 'payment.failed', customerId: idOf(invoice.customer), subscriptionId: idOf(invoice.parent?.subscription_details?.subscription ?? null) };
      }
      default:
        return { ...base, kind: 'ignored' };
    }
  }

  /** Stripe's failures as a 502 that names the operation's error type, never the key or request details. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError) {
        if (error.type === 'StripeInvalidRequestError') throw new UpstreamError(`Stripe refused the request: ${error.message.slice(0, 200)}`, 400);
        throw new UpstreamError(`Stripe failed (${error.type})`, 502);
      }
      throw new UpstreamError('Stripe could not be reached', 502);
    }
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

function hosted(session: Stripe.Checkout.Session): HostedSession {
  if (!session.url) throw new UpstreamError('Stripe answered a Checkout Session without a URL', 502);
  return { id: session.id, url: session.url };
}

const iso = (seconds: number | null | undefined): string | null => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null);

function toInvoiceSummary(i: Stripe.Invoice): InvoiceSummary {
  return {
    id: i.id ?? '',
    number: i.number ?? null,
    status: i.status ?? null,
    currency: i.currency,
    amountDueCents: i.amount_due,
    amountPaidCents: i.amount_paid,
    createdAt: new Date(i.created * 1000).toISOString(),
    periodStart: iso(i.period_start),
    periodEnd: iso(i.period_end),
    hostedInvoiceUrl: i.hosted_invoice_url ?? null,
    pdfUrl: i.invoice_pdf ?? null,
  };
}
