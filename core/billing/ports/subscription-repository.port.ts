import type { PlanTier, SubscriptionStatus } from '../domain/plans';
import type { Subscription } from '../domain/subscription';

/** Subscriptions, one per user, created lazily on the install's default plan (DEFAULT_PLAN) anchored at the user's registration. */
export interface SubscriptionRepository {
  /** The user's subscription, creating the default plan's on first use; null when the user does not exist. */
  ensure(userId: string): Promise<Subscription | null>;
  /** Sets plan and status and restarts the billing period at `startedAt`; null when the user does not exist. */
  change(userId: string, change: { plan: PlanTier; status: SubscriptionStatus; startedAt: Date }): Promise<Subscription | null>;
}
