import type { BillingPeriod } from '../domain/billing-period';
import type { UsageCounters } from '../domain/subscription';

export interface UsageReservation {
  userId: string;
  period: BillingPeriod;
  /** Tokens held for the call (0 for own-key calls, which do not count against the quota). */
  tokens: number;
  /** Refuse when used + reserved + `tokens` would pass this; null: no token limit. */
  tokenLimit: number | null;
  /** Refuse when the period already has this many messages; null: no message limit. */
  messageLimit: number | null;
  /** Messages the call counts: 1 for a chat turn (the default), 0 for an embedding call. */
  messages?: 0 | 1;
}

/**
 * `holdId` names the tokens held (absent when none were): a hold outlives the process holding it by a
 * bounded time only (the ledger's lease), then it is given back as if settled with nothing used.
 */
export type ReservationResult = { ok: true; holdId?: string } | { ok: false; exceeded: 'messages' | 'tokens'; usage: UsageCounters };

export interface UsageSettlement {
  userId: string;
  period: BillingPeriod;
  /** What `reserve` held. */
  reservedTokens: number;
  /**
   * The hold `reserve` answered: its tokens are given back only while it is still held (a hold whose
   * lease ran out was given back already), so a late settlement never gives them back twice.
   */
  holdId?: string;
  /** Tokens the provider reported; 0 when the call failed. */
  usedTokens: number;
  /** Whether the call ran (a failed call gives its message back). */
  ok: boolean;
  ownKey: boolean;
  /** Tokens past this count as overage; null: never. */
  includedTokens: number | null;
  /** The messages `reserve` counted (default 1); a failed call gives them back. */
  messages?: 0 | 1;
}

/**
 * Usage counters per user and billing period. `reserve` and `settle` are each one atomic step, so
 * concurrent chats cannot both take the last of an allowance.
 */
export interface UsageLedger {
  current(userId: string, period: BillingPeriod): Promise<UsageCounters>;
  /**
   * The row's counters as this ledger's last write to it answered them (the statement returns the row, so a
   * change made beside the ledger is taken in by its next write), without a statement: only when this ledger is
   * the only one writing the counters (one process on the embedded database) and has written the row since it
   * started; otherwise undefined (then `current` reads them). Optional: ledgers that cannot know answer nothing.
   */
  known?(userId: string, period: BillingPeriod): UsageCounters | undefined;
  /** Counts the call's message (one unless `messages` says 0) and holds `tokens`, unless that would pass a limit. */
  reserve(reservation: UsageReservation): Promise<ReservationResult>;
  /** Releases the hold and records what was used, with the overage it makes. */
  settle(settlement: UsageSettlement): Promise<void>;
}
