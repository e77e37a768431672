import type { DataSource } from 'typeorm';
import type { BillingAccount, BillingAccountRepository, OverageDue } from '../../../core/billing/ports/billing-account-repository.port';
import { affected, one, rows } from '../sql';

interface Row {
  user_id: string;
  customer_id: string;
  subscription_id: string | null;
  state_at: Date | null;
}

const toAccount = (r: Row): BillingAccount => ({ userId: r.user_id, customerId: r.customer_id, subscriptionId: r.subscription_id, stateAt: r.state_at && new Date(r.state_at) });
const COLUMNS = 'user_id, customer_id, subscription_id, state_at';

/**
 * Customers in `billing_customers`, applied webhook events in `billing_webhook_events`, reported overage in
 * `billing_overage_reports`. Every statement goes through the `sql.ts` helpers, so inside a unit of work
 * (the webhook's) they join its transaction: the event id and the change it causes commit together.
 */
export class TypeOrmBillingAccounts implements BillingAccountRepository {
  constructor(private readonly db: DataSource) {}

  async findByUser(userId: string): Promise<BillingAccount | null> {
    const row = await one<Row>(this.db, `SELECT ${COLUMNS} FROM billing_customers WHERE user_id = $1`, [userId]);
    return row && toAccount(row);
  }

  async findByCustomer(customerId: string): Promise<BillingAccount | null> {
    const row = await one<Row>(this.db, `SELECT ${COLUMNS} FROM billing_customers WHERE customer_id = $1`, [customerId]);
    return row && toAccount(row);
  }

  async attachCustomer(userId: string, customerId: string): Promise<BillingAccount | null> {
    // DO NOTHING: a concurrent first purchase stored one already; the read below answers the stored one.
    await affected(
      this.db,
      `INSERT INTO billing_customers (user_id, customer_id) SELECT id, $2 FROM users WHERE id = $1 ON CONFLICT DO NOTHING`,
      [userId, customerId],
    );
    return this.findByUser(userId);
  }

  async recordEvent(eventId: string, type: string): Promise<boolean> {
    // A concurrent transaction inserting the same id makes this one wait for its end, then conflict.
    const row = await one<{ event_id: string }>(
      this.db,
      `INSERT INTO billing_webhook_events (event_id, type) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [eventId, type],
    );
    return row !== null;
  }

  async advance(userId: string, change: { at: Date; subscriptionId?: string | null }): Promise<boolean> {
    const keep = change.subscriptionId === undefined;
    const n = await affected(
      this.db,
      `UPDATE billing_customers SET state_at = $2::timestamptz, subscription_id = CASE WHEN $3::boolean THEN subscription_id ELSE $4::text END
        WHERE user_id = $1 AND (state_at IS NULL OR state_at <= $2::timestamptz)`,
      [userId, change.at, keep, keep ? null : change.subscriptionId],
    );
    return n > 0;
  }

  async overageDue(limit: number): Promise<OverageDue[]> {
    const found = await rows<{ user_id: string; customer_id: string; period_start: Date; period_end: Date; overage_tokens: string | number; reported: string | number }>(
      this.db,
      `SELECT u.user_id, b.customer_id, u.period_start, u.period_end, u.overage_tokens, COALESCE(r.reported_tokens, 0) AS reported
         FROM usage_counters u
         JOIN billing_customers b ON b.user_id = u.user_id
         LEFT JOIN billing_overage_reports r ON r.user_id = u.user_id AND r.period_start = u.period_start
        WHERE u.overage_tokens > COALESCE(r.reported_tokens, 0)
        ORDER BY u.period_start, u.user_id
        LIMIT $1`,
      [limit],
    );
    return found.map((r) => ({
      userId: r.user_id,
      customerId: r.customer_id,
      periodStart: new Date(r.period_start),
      periodEnd: new Date(r.period_end),
      overageTokens: Number(r.overage_tokens),
      reportedTokens: Number(r.reported),
    }));
  }

  async markReported(userId: string, periodStart: Date, from: number, to: number): Promise<boolean> {
    const row = await one<{ reported_tokens: string }>(
      this.db,
      `INSERT INTO billing_overage_reports AS r (user_id, period_start, reported_tokens) SELECT $1::uuid, $2::timestamptz, $4::bigint WHERE $3::bigint = 0
       ON CONFLICT (user_id, period_start) DO NOTHING
       RETURNING reported_tokens`,
      [userId, periodStart, from, to],
    );
    if (row) return true;
    const n = await affected(
      this.db,
      `UPDATE billing_overage_reports SET reported_tokens = $4, reported_at = now() WHERE user_id = $1 AND period_start = $2 AND reported_tokens = $3`,
      [userId, periodStart, from, to],
    );
    return n > 0;
  }
}
