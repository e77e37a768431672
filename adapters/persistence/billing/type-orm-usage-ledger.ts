import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import { NO_USAGE, type UsageCounters } from '../../../core/billing/domain/subscription';
import type { ReservationResult, UsageLedger, UsageReservation, UsageSettlement } from '../../../core/billing/ports/usage-ledger.port';
import type { Clock } from '../../../core/shared/clock.port';
import { CoalescingLanes } from '../coalescing-lanes';
import { affected, ambientTransaction, one, rows } from '../sql';

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

/** Ledgers created on each database in this process (never decremented: a ledger let go may still be writing). */
const ledgersOn = new WeakMap<DataSource, number>();

/** Rows whose last written counters a sole-writer ledger keeps (about 200 bytes each). */
const KNOWN_ROWS = 10_000;

/**
 * Usage counters in `usage_counters`, one row per user and billing period. Reserving is a conditional
 * UPDATE (the row lock orders concurrent chats), settling an unconditional UPDATE whose overage is
 * computed from the row's value at that moment, so no count is ever lost.
 *
 * Every chat turn writes its user's row twice, so concurrent turns of one user queue on that row.
 * Writes to one row therefore go through a lane (`CoalescingLanes`): while one statement runs, the
 * reservations and settlements that arrive wait, then go together as one statement that applies the
 * settlements and admits the reservations. A batch of reservations is admitted whole only when each of
 * them would have been admitted in turn; otherwise they are taken one by one, so a batch decides exactly
 * what the same calls would decide one after the other (its settlements first: they all overlapped).
 *
 * Tokens held are also rows of `usage_holds`, written by the statement that reserves them and deleted by
 * the one that settles them, each naming this process (`holder`). The process keeps a lease on its name
 * (`usage_holders`), renewed every third of `leaseMs` (`renew`); `releaseExpired`, run by every instance,
 * gives back the holds whose holder's lease has run out, as a settlement with nothing used. A reservation
 * therefore outlives a killed process by at most the lease plus one sweep.
 */
export class TypeOrmUsageLedger implements UsageLedger {
  // No retry one by one: a batch that failed may already have applied its settlements.
  private readonly writes = new CoalescingLanes<Write, ReservationResult | undefined>((_, batch) => this.write(batch), { retryAlone: false });
  /** This process's name on its holds. */
  readonly holder = randomUUID();

  /** The counters each row's last write left (`known`), kept only when this ledger is the only writer; most recent last. */
  private readonly written = new Map<string, UsageCounters>();

  constructor(
    private readonly db: DataSource,
    private readonly lease: { leaseMs: number; clock: Clock } = { leaseMs: 30_000, clock: { now: () => new Date() } },
    /**
     * Set when no other process writes these counters (the embedded database allows one process): then every
     * write's answer carries the row's counters and `known` answers them without a statement.
     */
    private readonly options: { soleWriter?: boolean } = {},
  ) {
    ledgersOn.set(db, (ledgersOn.get(db) ?? 0) + 1);
  }

  known(userId: string, period: BillingPeriod): UsageCounters | undefined {
    // A second ledger on the same database in this process (two instances composed on one embedded database) writes too.
    if ((ledgersOn.get(this.db) ?? 0) > 1) return undefined;
    const counters = this.written.get(rowKey({ userId, period }));
    return counters && { ...counters };
  }

  private remember(key: string, counters: UsageCounters | null): void {
    this.written.delete(key);
    if (!counters) return;
    this.written.set(key, counters);
    if (this.written.size > KNOWN_ROWS) this.written.delete(this.written.keys().next().value!);
  }

  /** Takes or extends this process's lease on its holds (at start, then every third of the lease). */
  async renew(): Promise<void> {
    await affected(
      this.db,
      `INSERT INTO usage_holders (holder, expires_at) VALUES ($1, $2) ON CONFLICT (holder) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [this.holder, new Date(this.lease.clock.now().getTime() + this.lease.leaseMs)],
    );
  }

  /**
   * Gives back the holds whose holder's lease has run out (a hold whose holder never took one: a lease
   * after it was made), each as a settlement with nothing used: the tokens leave `tokens_reserved`, the
   * turn's message stays counted. Then forgets expired holders that hold nothing. Answers how many.
   */
  async releaseExpired(limit = 500): Promise<number> {
    const now = this.lease.clock.now();
    const expired = await rows<{ id: string; user_id: string; period_start: Date }>(
      this.db,
      `SELECT h.id, h.user_id, h.period_start FROM usage_holds h LEFT JOIN usage_holders l ON l.holder = h.holder
        WHERE coalesce(l.expires_at, h.held_at + $2 * interval '1 millisecond') < $1
        ORDER BY h.held_at LIMIT $3`,
      [now, this.lease.leaseMs, limit],
    );
    await Promise.all(
      expired.map((h) => {
        const start = new Date(h.period_start);
        const settlement: UsageSettlement = { userId: h.user_id, period: { start, end: start }, reservedTokens: 0, holdId: h.id, usedTokens: 0, ok: true, ownKey: false, includedTokens: null, messages: 0 };
        return this.writes.submit(rowKey(settlement), { settle: settlement });
      }),
    );
    await affected(this.db, `DELETE FROM usage_holders l WHERE l.expires_at < $1 AND NOT EXISTS (SELECT 1 FROM usage_holds h WHERE h.holder = l.holder)`, [now]);
    return expired.length;
  }

  async current(userId: string, period: BillingPeriod): Promise<UsageCounters> {
    const row = await one<Row>(this.db, `SELECT ${COUNTERS} FROM usage_counters WHERE user_id = $1 AND period_start = $2`, [userId, period.start]);
    return row ? toCounters(row) : { ...NO_USAGE };
  }

  async reserve(r: UsageReservation): Promise<ReservationResult> {
    return (await this.writes.submit(rowKey(r), { reserve: r }))!;
  }

  async settle(s: UsageSettlement): Promise<void> {
    await this.writes.submit(rowKey(s), { settle: s });
  }

  /** One batch of one row's writes, answered in order: reservations get their result, settlements nothing. */
  private async write(batch: Write[]): Promise<Array<ReservationResult | undefined>> {
    const reservations = batch.flatMap((w) => ('reserve' in w ? [w.reserve] : []));
    const holdIds = reservations.map((r) => (r.tokens > 0 ? randomUUID() : null));
    const runs = runsOf(batch.flatMap((w) => ('settle' in w ? [w.settle] : [])));
    // Settlements under another allowance than the last ones (a plan changed meanwhile) go first, apart.
    for (const run of runs.slice(0, -1)) await this.apply(run, [], []);
    const admitted = await this.apply(runs.at(-1) ?? [], reservations, holdIds);
    const results: ReservationResult[] = [];
    if (admitted) results.push(...holdIds.map((holdId): ReservationResult => (holdId ? { ok: true, holdId } : { ok: true })));
    else for (const [i, r] of reservations.entries()) results.push(await this.reserveOne(r, holdIds[i]!));
    return batch.map((w) => ('reserve' in w ? results.shift() : undefined));
  }

  /**
   * Applies the settlements (one run: the same included allowance) and takes the reservations whole,
   * in one statement. The row is locked first and everything is computed from that version, so a
   * concurrent writer elsewhere is simply waited for. Answers whether the reservations were taken
   * (true when there are none); false also when the row does not exist yet. Settlements with a hold give
   * back what the hold still holds (deleting it); the reservations' holds (`holdIds`, null for those
   * holding no tokens) are written when they are taken. The counters' row is locked before any hold.
   */
  private async apply(settlements: UsageSettlement[], reservations: UsageReservation[], holdIds: Array<string | null>): Promise<boolean> {
    const { userId, period } = settlements[0] ?? reservations[0]!;
    const settled = sumOf(settlements);
    const taken = roomFor(reservations);
    const held = reservations.flatMap((r, i) => (holdIds[i] ? [{ id: holdIds[i]!, tokens: r.tokens }] : []));
    const key = rowKey({ userId, period });
    // Inside a transaction the row's new counters are not yet committed (and may never be): not remembered.
    const remember = this.options.soleWriter === true && ambientTransaction.getStore()?.dataSource !== this.db;
    let row: ({ admitted: boolean } & Row) | null;
    try {
      row = await one<{ admitted: boolean } & Row>(
        this.db,
        `WITH old AS (SELECT user_id, period_start, messages_used, tokens_used, tokens_reserved
                        FROM usage_counters WHERE user_id = $1 AND period_start = $2 FOR UPDATE),
              released AS (DELETE FROM usage_holds WHERE id = ANY($12::uuid[]) AND EXISTS (SELECT 1 FROM old) RETURNING tokens),
              settled AS (SELECT user_id, period_start, tokens_used AS used_before,
                                 GREATEST(0, messages_used - $8::int) AS messages_used,
                                 tokens_used + $3::bigint AS tokens_used,
                                 GREATEST(0, tokens_reserved - $6::bigint - (SELECT coalesce(sum(tokens), 0) FROM released)) AS tokens_reserved
                            FROM old),
              decided AS (SELECT *, ($10::bigint IS NULL OR messages_used < $10::bigint)
                                    AND ($11::bigint IS NULL OR tokens_used + tokens_reserved < $11::bigint) AS admitted
                            FROM settled),
              holds AS (INSERT INTO usage_holds (id, holder, user_id, period_start, tokens, held_at)
                        SELECT h.id, $15::uuid, $1::uuid, $2::timestamptz, h.tokens, $16::timestamptz FROM unnest($13::uuid[], $14::bigint[]) AS h(id, tokens)
                         WHERE (SELECT admitted FROM decided)
                        RETURNING 1)
         UPDATE usage_counters u SET
                tokens_used = d.tokens_used,
                own_key_tokens = u.own_key_tokens + $4::bigint,
                overage_tokens = u.overage_tokens + CASE WHEN $5::bigint IS NULL THEN 0
                  ELSE GREATEST(0, d.tokens_used - $5::bigint) - GREATEST(0, d.used_before - $5::bigint) END,
                tokens_reserved = d.tokens_reserved + CASE WHEN d.admitted THEN $7::bigint ELSE 0 END,
                messages_used = d.messages_used + CASE WHEN d.admitted THEN $9::int ELSE 0 END
           FROM decided d
          WHERE u.user_id = d.user_id AND u.period_start = d.period_start
         RETURNING d.admitted, u.tokens_used, u.tokens_reserved, u.overage_tokens, u.own_key_tokens, u.messages_used`,
        [
          userId, period.start, settled.quotaTokens, settled.ownKeyTokens, settlements[0]?.includedTokens ?? null, settled.reserved,
          taken.tokens, settled.messagesBack, taken.messages, taken.messageRoom, taken.tokenRoom,
          settlements.flatMap((s) => (s.holdId ? [s.holdId] : [])), held.map((h) => h.id), held.map((h) => h.tokens),
          this.holder, this.lease.clock.now(),
        ],
      );
    } catch (error) {
      this.written.delete(key);
      throw error;
    }
    if (remember) this.remember(key, row && toCounters(row));
    else this.written.delete(key);
    return reservations.length === 0 || row?.admitted === true;
  }

  private async reserveOne(r: UsageReservation, holdId: string | null): Promise<ReservationResult> {
    const ok = (): ReservationResult => (holdId ? { ok: true, holdId } : { ok: true });
    if (await this.apply([], [r], [holdId])) return ok();
    // The period's first chat creates its row (or a concurrent one did); then the same conditional step.
    await this.db.query(
      `INSERT INTO usage_counters (user_id, period_start, period_end) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, period_start) DO NOTHING`,
      [r.userId, r.period.start, r.period.end],
    );
    if (await this.apply([], [r], [holdId])) return ok();
    const usage = await this.current(r.userId, r.period);
    const messagesFull = r.messageLimit !== null && usage.messagesUsed >= r.messageLimit;
    return { ok: false, exceeded: messagesFull ? 'messages' : 'tokens', usage };
  }
}

type Write = { reserve: UsageReservation } | { settle: UsageSettlement };

/** Consecutive settlements under the same included allowance: overage adds up within a run (see `sumOf`). */
function runsOf(settlements: UsageSettlement[]): UsageSettlement[][] {
  const runs: UsageSettlement[][] = [];
  for (const s of settlements) {
    const last = runs.at(-1);
    if (last && last[0]!.includedTokens === s.includedTokens) last.push(s);
    else runs.push([s]);
  }
  return runs;
}

/**
 * What a run of settlements changes. Its overage is computed by the statement: each call's overage is
 * how far it moves max(0, used - included), so the run's is the move of all its tokens together.
 */
function sumOf(settlements: UsageSettlement[]) {
  const sum = { reserved: 0, quotaTokens: 0, ownKeyTokens: 0, messagesBack: 0 };
  for (const s of settlements) {
    const used = Math.max(0, Math.round(s.usedTokens));
    // A hold's tokens are given back by what its row still holds (the statement reads it).
    if (!s.holdId) sum.reserved += s.reservedTokens;
    if (s.ownKey) sum.ownKeyTokens += used;
    else sum.quotaTokens += used;
    if (!s.ok) sum.messagesBack += s.messages ?? 1;
  }
  return sum;
}

/**
 * What reservations take together, and the room the row needs for all of them: each is admitted when
 * the row, as the ones before it leave it, is below its limits; so all are when the row is below the
 * smallest of (limit - what the earlier ones add).
 */
function roomFor(reservations: UsageReservation[]) {
  const taken = { messages: 0, tokens: 0, messageRoom: null as number | null, tokenRoom: null as number | null };
  for (const r of reservations) {
    if (r.messageLimit !== null) taken.messageRoom = Math.min(taken.messageRoom ?? Infinity, r.messageLimit - taken.messages);
    if (r.tokenLimit !== null) taken.tokenRoom = Math.min(taken.tokenRoom ?? Infinity, r.tokenLimit - taken.tokens);
    taken.messages += r.messages ?? 1;
    taken.tokens += r.tokens;
  }
  return taken;
}

const rowKey = (r: { userId: string; period: BillingPeriod }) => `${r.userId}|${r.period.start.getTime()}`;
