import type { DataSource } from 'typeorm';
import type { PlanTier, SubscriptionStatus } from '../../../core/billing/domain/plans';
import type { Subscription } from '../../../core/billing/domain/subscription';
import type { SubscriptionRepository } from '../../../core/billing/ports/subscription-repository.port';
import { affected, one } from '../sql';

interface Row {
  user_id: string;
  plan: PlanTier;
  status: SubscriptionStatus;
  started_at: Date;
}

const toSubscription = (r: Row): Subscription => ({ userId: r.user_id, plan: r.plan, status: r.status, startedAt: new Date(r.started_at) });

/**
 * Subscriptions in `subscriptions`; a user without a row gets the install's default plan (DEFAULT_PLAN, Free
 * unless set), active and anchored at registration.
 */
export class TypeOrmSubscriptionRepository implements SubscriptionRepository {
  constructor(
    private readonly db: DataSource,
    private readonly initialPlan: PlanTier = 'free',
  ) {}

  async ensure(userId: string): Promise<Subscription | null> {
    const existing = await this.find(userId);
    if (existing) return existing;
    // DO NOTHING: a concurrent first request may have created it; the read below sees either row.
    await affected(
      this.db,
      `INSERT INTO subscriptions (user_id, plan, status, started_at)
       SELECT id, $2, 'active', created_at FROM users WHERE id = $1
       ON CONFLICT (user_id) DO NOTHING`,
      [userId, this.initialPlan],
    );
    return this.find(userId);
  }

  async change(userId: string, change: { plan: PlanTier; status: SubscriptionStatus; startedAt: Date }): Promise<Subscription | null> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO subscriptions (user_id, plan, status, started_at, updated_at)
       SELECT id, $2, $3, $4, $4 FROM users WHERE id = $1
       ON CONFLICT (user_id) DO UPDATE SET plan = EXCLUDED.plan, status = EXCLUDED.status,
         started_at = EXCLUDED.started_at, updated_at = EXCLUDED.updated_at
       RETURNING user_id, plan, status, started_at`,
      [userId, change.plan, change.status, change.startedAt],
    );
    return row && toSubscription(row);
  }

  private async find(userId: string): Promise<Subscription | null> {
    const row = await one<Row>(this.db, `SELECT user_id, plan, status, started_at FROM subscriptions WHERE user_id = $1`, [userId]);
    return row && toSubscription(row);
  }
}
