import { randomUUID } from 'node:crypto';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import { NO_USAGE, type UsageCounters } from '../../../core/billing/domain/subscription';
import type { ReservationResult, UsageLedger, UsageReservation, UsageSettlement } from '../../../core/billing/ports/usage-ledger.port';

/**
 * Usage counters in a map, with the same rules as the SQL ledger (each call is atomic in one event-loop turn).
 * Its holds live and die with the process, so they need no lease; a hold is given back once.
 */
export class InMemoryUsageLedger implements UsageLedger {
  readonly counters = new Map<string, UsageCounters>();
  private readonly holds = new Map<string, number>();

  async current(userId: string, period: BillingPeriod): Promise<UsageCounters> {
    return { ...(this.counters.get(id(userId, period)) ?? NO_USAGE) };
  }

  /** The only writer of its map: a row it holds is known. */
  known(userId: string, period: BillingPeriod): UsageCounters | undefined {
    const c = this.counters.get(id(userId, period));
    return c && { ...c };
  }

  async reserve(r: UsageReservation): Promise<ReservationResult> {
    const c = this.row(r.userId, r.period);
    if (r.messageLimit !== null && c.messagesUsed >= r.messageLimit) return { ok: false, exceeded: 'messages', usage: { ...c } };
    if (r.tokenLimit !== null && c.tokensUsed + c.tokensReserved >= r.tokenLimit) return { ok: false, exceeded: 'tokens', usage: { ...c } };
    c.messagesUsed += r.messages ?? 1;
    c.tokensReserved += r.tokens;
    if (r.tokens <= 0) return { ok: true };
    const holdId = randomUUID();
    this.holds.set(holdId, r.tokens);
    return { ok: true, holdId };
  }

  async settle(s: UsageSettlement): Promise<void> {
    const c = this.counters.get(id(s.userId, s.period));
    if (!c) return;
    const used = Math.max(0, Math.round(s.usedTokens));
    const reserved = s.holdId === undefined ? s.reservedTokens : (this.holds.get(s.holdId) ?? 0);
    if (s.holdId !== undefined) this.holds.delete(s.holdId);
    c.tokensReserved = Math.max(0, c.tokensReserved - reserved);
    if (s.ownKey) c.ownKeyTokens += used;
    else {
      if (s.includedTokens !== null) c.overageTokens += Math.max(0, Math.min(used, c.tokensUsed + used - s.includedTokens));
      c.tokensUsed += used;
    }
    if (!s.ok) c.messagesUsed = Math.max(0, c.messagesUsed - (s.messages ?? 1));
  }

  private row(userId: string, period: BillingPeriod): UsageCounters {
    const key = id(userId, period);
    if (!this.counters.has(key)) this.counters.set(key, { ...NO_USAGE });
    return this.counters.get(key)!;
  }
}

const id = (userId: string, period: BillingPeriod) => `${userId}@${period.start.toISOString()}`;
