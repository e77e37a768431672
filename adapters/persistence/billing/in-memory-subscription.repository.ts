import type { PlanTier, SubscriptionStatus } from '../../../core/billing/domain/plans';
import type { Subscription } from '../../../core/billing/domain/subscription';
import type { SubscriptionRepository } from '../../../core/billing/ports/subscription-repository.port';

/** Subscriptions in a map, for unit tests; `users` plays the users table (id -> registration date); new ones start on `initialPlan`. */
export class InMemorySubscriptionRepository implements SubscriptionRepository {
  readonly subscriptions = new Map<string, Subscription>();

  constructor(
    readonly users = new Map<string, Date>(),
    private readonly initialPlan: PlanTier = 'free',
  ) {}

  async ensure(userId: string): Promise<Subscription | null> {
    const registered = this.users.get(userId);
    if (!registered) return null;
    if (!this.subscriptions.has(userId)) this.subscriptions.set(userId, { userId, plan: this.initialPlan, status: 'active', startedAt: registered });
    return { ...this.subscriptions.get(userId)! };
  }

  async change(userId: string, change: { plan: PlanTier; status: SubscriptionStatus; startedAt: Date }): Promise<Subscription | null> {
    if (!this.users.has(userId)) return null;
    this.subscriptions.set(userId, { userId, ...change });
    return { userId, ...change };
  }
}
