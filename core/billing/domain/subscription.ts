import { periodContaining, type BillingPeriod } from './billing-period';
import type { PlanTier, SubscriptionStatus } from './plans';

/** A user's subscription (SPEC 2.11). Users without a stored one are on Free from their registration. */
export interface Subscription {
  userId: string;
  plan: PlanTier;
  status: SubscriptionStatus;
  /** Anchor of the monthly billing periods: registration, or the last plan change. */
  startedAt: Date;
}

export const currentPeriod = (subscription: Subscription, now: Date): BillingPeriod => periodContaining(subscription.startedAt, now);

/** Usage counters of one billing period; tokens are on the platform's keys unless said otherwise. */
export interface UsageCounters {
  tokensUsed: number;
  /** Held by chats in flight, released when they settle. */
  tokensReserved: number;
  /** Tokens past the included ones (billed on Starter and Pro). */
  overageTokens: number;
  /** Tokens answered on the user's own keys: never billed, shown for information. */
  ownKeyTokens: number;
  messagesUsed: number;
}

export const NO_USAGE: UsageCounters = { tokensUsed: 0, tokensReserved: 0, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 0 };
