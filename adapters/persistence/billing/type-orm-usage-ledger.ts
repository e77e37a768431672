import type { DataSource } from 'typeorm';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import { NO_USAGE, type UsageCounters } from '../../../core/billing/domain/subscription';
import type { ReservationResult, UsageLedger, UsageReservation, UsageSettlement } from '../../../core/billing/ports/usage-ledger.port';
import { affected, one } from '../sql';

interface Row {
  tokens_used: string | number;
  tokens_reserved: string | number;
  overage_tokens: string | number;
  own_key_tokens: string | number;
  messages_used: string | number;
}

const toCounters = (r: Row): UsageCounters => ({
  tokensUsed: Number(r.tokens_used),
  tokensReserved: Number(r.tokens_reserved),
  overageTokens: Number(r.overage_tokens),
  ownKeyTokens: Number(r.own_key_tokens),
  messagesUsed: Number(r.messages_used),
});

const COUNTERS = 'tokens_used, tokens_reserved, overage_tokens, own_key_tokens, messages_used';

/**
 * Usage counters in `usage_counters`, one row per user and billing period. Reserving is one
 * conditional UPDATE (the row lock orders concurrent chats), settling one unconditional UPDATE whose
 * overage is computed from the row's value at that moment, so no count is ever lost.
 */
export class TypeOrmUsageLedger implements UsageLedger {
  constructor(private readonly db: DataSource) {}

  async current(userId: string, period: BillingPeriod): Promise<UsageCounters> {
    const row = await one<Row>(this.db, `SELECT ${COUNTERS} FROM usage_counters WHERE user_id = $1 AND period_start = $2`, [userId, period.start]);
    return row ? toCounters(row) : { ...NO_USAGE };
  }

  async reserve(r: UsageReservation): Promise<ReservationResult> {
    const take = () =>
      one<Row>(
        this.db,
        `UPDATE usage_counters
            SET messages_used = messages_used + $6::int, tokens_reserved = tokens_reserved + $3::bigint
          WHERE user_id = $1 AND period_start = $2
            AND ($4::bigint IS NULL OR messages_used < $4::bigint)
            AND ($5::bigint IS NULL OR tokens_used + tokens_reserved < $5::bigint)
          RETURNING ${COUNTERS}`,
        [r.userId, r.period.start, r.tokens, r.messageLimit, r.tokenLimit, r.messages ?? 1],
      );
    if (await take()) return { ok: true };
    // The period's first chat creates its row (or a concurrent one did); then the same conditional step.
    await this.db.query(
      `INSERT INTO usage_counters (user_id, period_start, period_end) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, period_start) DO NOTHING`,
      [r.userId, r.period.start, r.period.end],
    );
    if (await take()) return { ok: true };
    const usage = await this.current(r.userId, r.period);
    const messagesFull = r.messageLimit !== null && usage.messagesUsed >= r.messageLimit;
    return { ok: false, exceeded: messagesFull ? 'messages' : 'tokens', usage };
  }

  async settle(s: UsageSettlement): Promise<void> {
    const used = Math.max(0, Math.round(s.usedTokens));
    await affected(
      this.db,
      `UPDATE usage_counters SET
         tokens_reserved = GREATEST(0, tokens_reserved - $3::bigint),
         tokens_used = tokens_used + CASE WHEN $5::boolean THEN 0 ELSE $4::bigint END,
         own_key_tokens = own_key_tokens + CASE WHEN $5::boolean THEN $4::bigint ELSE 0 END,
         overage_tokens = overage_tokens + CASE WHEN $5::boolean OR $6::bigint IS NULL THEN 0
           ELSE GREATEST(0, LEAST($4::bigint, tokens_used + $4::bigint - $6::bigint)) END,
         messages_used = CASE WHEN $7::boolean THEN messages_used ELSE GREATEST(0, messages_used - $8::int) END
       WHERE user_id = $1 AND period_start = $2`,
      [s.userId, s.period.start, s.reservedTokens, used, s.ownKey, s.includedTokens, s.ok, s.messages ?? 1],
    );
  }
}
