import type { DataSource } from 'typeorm';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import { NO_USAGE, type UsageCounters } from '../../../core/billing/domain/subscription';
import type { ReservationResult, UsageLedger, UsageReservation, UsageSettlement } from '../../../core/billing/ports/usage-ledger.port';
import { CoalescingLanes } from '../coalescing-lanes';
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
 * Usage counters in `usage_counters`, one row per user and billing period. Reserving is a conditional
 * UPDATE (the row lock orders concurrent chats), settling an unconditional UPDATE whose overage is
 * computed from the row's value at that moment, so no count is ever lost.
 *
 * Every chat turn writes its user's row twice, so concurrent turns of one user queue on that row.
 * Writes to one row therefore go through a lane (`CoalescingLanes`): while one statement runs, the
 * reservations (or settlements) that arrive wait and then go as one statement. A batch of reservations
 * is admitted whole only when each of them would have been admitted in turn; otherwise they are taken
 * one by one, so a batch decides exactly what the same reservations would decide one after the other.
 */
export class TypeOrmUsageLedger implements UsageLedger {
  private readonly reservations = new CoalescingLanes<UsageReservation, ReservationResult>((_, batch) => this.reserveBatch(batch));
  private readonly settlements = new CoalescingLanes<UsageSettlement, void>((_, batch) => this.settleBatch(batch));

  constructor(private readonly db: DataSource) {}

  async current(userId: string, period: BillingPeriod): Promise<UsageCounters> {
    const row = await one<Row>(this.db, `SELECT ${COUNTERS} FROM usage_counters WHERE user_id = $1 AND period_start = $2`, [userId, period.start]);
    return row ? toCounters(row) : { ...NO_USAGE };
  }

  reserve(r: UsageReservation): Promise<ReservationResult> {
    return this.reservations.submit(rowKey(r), r);
  }

  settle(s: UsageSettlement): Promise<void> {
    return this.settlements.submit(rowKey(s), s);
  }

  private async reserveBatch(batch: UsageReservation[]): Promise<ReservationResult[]> {
    if (batch.length > 1 && (await this.take(batch))) return batch.map(() => ({ ok: true }));
    const results: ReservationResult[] = [];
    for (const r of batch) results.push(await this.reserveOne(r));
    return results;
  }

  private async reserveOne(r: UsageReservation): Promise<ReservationResult> {
    if (await this.take([r])) return { ok: true };
    // The period's first chat creates its row (or a concurrent one did); then the same conditional step.
    await this.db.query(
      `INSERT INTO usage_counters (user_id, period_start, period_end) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, period_start) DO NOTHING`,
      [r.userId, r.period.start, r.period.end],
    );
    if (await this.take([r])) return { ok: true };
    const usage = await this.current(r.userId, r.period);
    const messagesFull = r.messageLimit !== null && usage.messagesUsed >= r.messageLimit;
    return { ok: false, exceeded: messagesFull ? 'messages' : 'tokens', usage };
  }

  /**
   * Takes the reservations (all of one row) in one step, or none of them. Each is admitted when the row,
   * as the ones before it in the batch leave it, is below its limits; so all are when the row is below
   * the smallest of (limit - what the earlier ones add). The check stays a plain comparison on the row,
   * which PostgreSQL re-evaluates on the newest version when concurrent writers queue on it.
   */
  private async take(batch: UsageReservation[]): Promise<boolean> {
    const { userId, period } = batch[0]!;
    let messages = 0;
    let tokens = 0;
    let messageRoom: number | null = null;
    let tokenRoom: number | null = null;
    for (const r of batch) {
      if (r.messageLimit !== null) messageRoom = Math.min(messageRoom ?? Infinity, r.messageLimit - messages);
      if (r.tokenLimit !== null) tokenRoom = Math.min(tokenRoom ?? Infinity, r.tokenLimit - tokens);
      messages += r.messages ?? 1;
      tokens += r.tokens;
    }
    const updated = await affected(
      this.db,
      `UPDATE usage_counters
          SET messages_used = messages_used + $3::int, tokens_reserved = tokens_reserved + $4::bigint
        WHERE user_id = $1 AND period_start = $2
          AND ($5::bigint IS NULL OR messages_used < $5::bigint)
          AND ($6::bigint IS NULL OR tokens_used + tokens_reserved < $6::bigint)`,
      [userId, period.start, messages, tokens, messageRoom, tokenRoom],
    );
    return updated > 0;
  }

  /**
   * One statement per run of settlements with the same included allowance (in practice one run, as a
   * plan changes rarely), in their order. Overage adds up over a run: each call's overage is how far it
   * moves max(0, used - included), so the run's is the move of them all together.
   */
  private async settleBatch(batch: UsageSettlement[]): Promise<void[]> {
    for (let from = 0; from < batch.length; ) {
      let to = from + 1;
      while (to < batch.length && batch[to]!.includedTokens === batch[from]!.includedTokens) to++;
      const group = batch.slice(from, to);
      const includedTokens = group[0]!.includedTokens;
      from = to;
      let reserved = 0;
      let quotaTokens = 0;
      let ownKeyTokens = 0;
      let messagesBack = 0;
      for (const s of group) {
        const used = Math.max(0, Math.round(s.usedTokens));
        reserved += s.reservedTokens;
        if (s.ownKey) ownKeyTokens += used;
        else quotaTokens += used;
        if (!s.ok) messagesBack += s.messages ?? 1;
      }
      const { userId, period } = group[0]!;
      await affected(
        this.db,
        `UPDATE usage_counters SET
           tokens_reserved = GREATEST(0, tokens_reserved - $3::bigint),
           tokens_used = tokens_used + $4::bigint,
           own_key_tokens = own_key_tokens + $5::bigint,
           overage_tokens = overage_tokens + CASE WHEN $6::bigint IS NULL THEN 0
             ELSE GREATEST(0, tokens_used + $4::bigint - $6::bigint) - GREATEST(0, tokens_used - $6::bigint) END,
           messages_used = GREATEST(0, messages_used - $7::int)
         WHERE user_id = $1 AND period_start = $2`,
        [userId, period.start, reserved, quotaTokens, ownKeyTokens, includedTokens, messagesBack],
      );
    }
    return batch.map(() => undefined);
  }
}

const rowKey = (r: { userId: string; period: BillingPeriod }) => `${r.userId}|${r.period.start.getTime()}`;
