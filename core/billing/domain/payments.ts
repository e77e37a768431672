import type { PlanTier, SubscriptionStatus } from './plans';

/** The plans sold through the payment processor (Free needs no payment). */
export const PAID_TIERS = ['starter', 'pro', 'enterprise'] as const satisfies readonly PlanTier[];
export type PaidTier = (typeof PAID_TIERS)[number];
export const isPaidTier = (value: unknown): value is PaidTier => typeof value === 'string' && (PAID_TIERS as readonly string[]).includes(value);

/** A hosted page the user is sent to (Checkout or the customer portal). */
export interface HostedSession {
  id: string;
  url: string;
}

export interface InvoiceSummary {
  id: string;
  number: string | null;
  status: string | null;
  currency: string;
  amountDueCents: number;
  amountPaidCents: number;
  createdAt: string;
  periodStart: string | null;
  periodEnd: string | null;
  hostedInvoiceUrl: string | null;
  pdfUrl: string | null;
}

export interface InvoicePage {
  items: InvoiceSummary[];
  hasMore: boolean;
  /** Pass as `startingAfter` for the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * A verified webhook event of the payment processor, reduced to what billing acts on. `created` is the
 * processor's own time of the event: events that arrive out of order are resolved by it.
 */
export type PaymentEvent =
  | {
      kind: 'checkout.completed';
      id: string;
      type: string;
      created: Date;
      customerId: string | null;
      sessionId: string;
      /** What the session sold: a plan (`subscription`) or a marketplace item's license (`license`). */
      purpose: 'subscription' | 'license' | 'other';
      subscriptionId: string | null;
      plan: PlanTier | null;
      itemId: string | null;
      /** The user the session was opened for (its metadata). */
      userId: string | null;
      paid: boolean;
    }
  | {
      kind: 'subscription.changed';
      id: string;
      type: string;
      created: Date;
      customerId: string | null;
      subscriptionId: string;
      deleted: boolean;
      /** The processor's status word (`active`, `past_due`, `unpaid`, `canceled`…). */
      status: string;
      /** The plan of the subscription's price; null when the price is not one of this install's plans. */
      plan: PlanTier | null;
      currentPeriodStart: Date | null;
    }
  | { kind: 'payment.failed'; id: string; type: string; created: Date; customerId: string | null; subscriptionId: string | null }
  | { kind: 'ignored'; id: string; type: string; created: Date };

/**
 * The processor's subscription statuses as the platform's (SPEC 2.11): unpaid counts as past due
 * (included tokens become a hard limit), a paused or expired one as canceled (Free rules).
 */
export function subscriptionStatusOf(processorStatus: string): SubscriptionStatus {
  switch (processorStatus) {
    case 'active':
      return 'active';
    case 'trialing':
      return 'trialing';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'incomplete':
      return 'incomplete';
    default:
      // canceled, incomplete_expired, paused and anything newer: no paid service.
      return 'canceled';
  }
}
