import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { DomainEvent, NewDomainEvent } from '../../../core/events/domain/domain-event';
import type { EventOutbox } from '../../../core/events/ports/event-outbox.port';
import type { EventPublisher } from '../../../core/events/ports/event-publisher.port';
import type { Clock } from '../../../core/shared/clock.port';
import type { UnitOfWork } from '../../../core/shared/unit-of-work.port';
import { affected, rows } from '../sql';

interface Row {
  event_id: string;
  type: string;
  owner_id: string;
  application_id: string | null;
  data: Record<string, unknown> | string;
  occurred_at: Date | string;
  dedupe_key: string | null;
}

/** Claimed rows as events, oldest first (UPDATE … RETURNING answers in no particular order). */
function toEvents(claimed: Row[]): DomainEvent[] {
  return claimed
    .sort((a, b) => Number((a as unknown as { seq: string }).seq) - Number((b as unknown as { seq: string }).seq))
    .map((r) => ({
      id: r.event_id,
      type: r.type as DomainEvent['type'],
      ownerId: r.owner_id,
      applicationId: r.application_id,
      data: typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : r.data,
      timestamp: new Date(r.occurred_at).toISOString(),
      ...(r.dedupe_key ? { dedupeKey: r.dedupe_key } : {}),
    }));
}

export const newEventId = (): string => `evt_${randomUUID().replace(/-/g, '')}`;

/**
 * Writes events to `event_outbox` with one INSERT, inside the caller's unit of work when there is one
 * (so a rolled-back change leaves no event), then wakes the dispatcher once that work committed.
 */
export class SqlEventPublisher implements EventPublisher {
  constructor(
    private readonly deps: { db: DataSource; clock: Clock; unitOfWork: UnitOfWork; wake: () => void },
  ) {}

  async publish(...events: NewDomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    const at = this.deps.clock.now();
    const params: unknown[] = [];
    const values = events.map((e) => {
      params.push(newEventId(), e.type, e.ownerId, e.applicationId ?? null, JSON.stringify(e.data), at, e.dedupeKey ?? null);
      const n = params.length;
      return `($${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}::jsonb, $${n - 1}, $${n})`;
    });
    await affected(
      this.deps.db,
      `INSERT INTO event_outbox (event_id, type, owner_id, application_id, data, occurred_at, dedupe_key)
       VALUES ${values.join(', ')} ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING`,
      params,
    );
    this.deps.unitOfWork.afterCommit(this.deps.wake);
  }
}

/** The dispatcher's side of `event_outbox`: leases taken with SKIP LOCKED, so instances share the work. */
export class SqlEventOutbox implements EventOutbox {
  constructor(private readonly db: DataSource) {}

  async claim(limit: number, now: Date, leaseUntil: Date): Promise<DomainEvent[]> {
    const claimed = await rows<Row>(
      this.db,
      `UPDATE event_outbox SET claimed_until = $3, attempts = attempts + 1
       WHERE seq IN (
         SELECT seq FROM event_outbox
         WHERE dispatched_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2)
         ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING seq, event_id, type, owner_id, application_id, data, occurred_at, dedupe_key`,
      [limit, now, leaseUntil],
    );
    return toEvents(claimed);
  }

  /**
   * The dispatcher's loop in one statement per batch: the last batch marked dispatched (a data-modifying CTE) and
   * the next one claimed. The marked events are still leased by this dispatcher, so the claim would pass them by
   * anyway; they are also left out by id, so no row is changed twice by the statement.
   */
  async markAndClaim(done: string[], at: Date, limit: number, now: Date, leaseUntil: Date): Promise<DomainEvent[]> {
    const claimed = await rows<Row>(
      this.db,
      `WITH marked AS (
         UPDATE event_outbox SET dispatched_at = $5, claimed_until = NULL, last_error = NULL WHERE event_id = ANY($4::text[]))
       UPDATE event_outbox SET claimed_until = $3, attempts = attempts + 1
       WHERE seq IN (
         SELECT seq FROM event_outbox
         WHERE dispatched_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2) AND event_id <> ALL($4::text[])
         ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING seq, event_id, type, owner_id, application_id, data, occurred_at, dedupe_key`,
      [limit, now, leaseUntil, done, at],
    );
    return toEvents(claimed);
  }

  async markDispatched(ids: string[], at: Date): Promise<void> {
    await affected(this.db, `UPDATE event_outbox SET dispatched_at = $2, claimed_until = NULL, last_error = NULL WHERE event_id = ANY($1::text[])`, [ids, at]);
  }

  /**
   * Deletes events handed over before `before` (their deliveries keep their own copy of the body). Events
   * with a dedupe key stay: they are what keeps a threshold from being announced twice (a few per user and period).
   */
  prune(before: Date): Promise<number> {
    return affected(this.db, `DELETE FROM event_outbox WHERE dispatched_at IS NOT NULL AND dispatched_at < $1 AND dedupe_key IS NULL`, [before]);
  }

  async release(ids: string[], retryAt: Date, error: string): Promise<void> {
    await affected(this.db, `UPDATE event_outbox SET claimed_until = $2, last_error = $3 WHERE event_id = ANY($1::text[])`, [ids, retryAt, error.slice(0, 500)]);
  }
}
