import { randomUUID } from 'node:crypto';
import type { Database } from '../../../adapters/persistence/data-source';
import { SqlEventOutbox, SqlEventPublisher } from '../../../adapters/persistence/events/sql-event-outbox';
import { SqlUnitOfWork } from '../../../adapters/persistence/events/sql-unit-of-work';
import type { DomainEvent } from '../../../core/events/domain/domain-event';
import { DispatchEventsUseCase } from '../../../core/events/use-cases/dispatch-events.use-case';
import { one, rows } from '../../../adapters/persistence/sql';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

describe.each(DATABASE_KINDS)('the event outbox (%s)', (kind) => {
  let db: Database;
  let outbox: SqlEventOutbox;
  let publisher: SqlEventPublisher;
  const clock = { now: () => new Date() };
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    outbox = new SqlEventOutbox(db.dataSource);
    publisher = new SqlEventPublisher({ db: db.dataSource, clock, unitOfWork: new SqlUnitOfWork(db.dataSource), wake: () => undefined });
  });
  afterAll(() => db.close());

  const publish = async (ownerId: string, n: number) => {
    for (let i = 0; i < n; i++) await publisher.publish({ type: 'application.created', ownerId, applicationId: null, data: { applicationId: randomUUID(), name: `App ${i}` } });
  };
  const stateOf = (ids: string[]) =>
    rows<{ event_id: string; dispatched: boolean; claimed: boolean }>(
      db.dataSource,
      `SELECT event_id, dispatched_at IS NOT NULL AS dispatched, claimed_until IS NOT NULL AS claimed FROM event_outbox WHERE event_id = ANY($1::text[]) ORDER BY seq`,
      [ids],
    );

  it('marks the last batch dispatched and claims the next one in one statement', async () => {
    const owner = randomUUID();
    await publish(owner, 5);
    const now = clock.now();
    const lease = new Date(now.getTime() + 60_000);
    const first = await outbox.claim(2, now, lease);
    expect(first).toHaveLength(2);
    const second = await outbox.markAndClaim(first.map((e) => e.id), now, 2, now, lease);
    expect(second).toHaveLength(2);
    expect(second.map((e) => e.id)).not.toEqual(expect.arrayContaining(first.map((e) => e.id)));
    // Oldest first, whole events.
    expect(second[0]).toMatchObject({ type: 'application.created', ownerId: owner, data: { name: 'App 2' } });
    const states = await stateOf([...first, ...second].map((e) => e.id));
    expect(states.map((s) => [s.dispatched, s.claimed])).toEqual([[true, false], [true, false], [false, true], [false, true]]);
    const third = await outbox.markAndClaim(second.map((e) => e.id), now, 10, now, lease);
    expect(third.map((e) => e.data)).toEqual([expect.objectContaining({ name: 'App 4' })]);
    expect(await outbox.markAndClaim(third.map((e) => e.id), now, 10, now, lease)).toEqual([]);
    const left = await one<{ n: string }>(db.dataSource, `SELECT count(*) AS n FROM event_outbox WHERE owner_id = $1 AND dispatched_at IS NULL`, [owner]);
    expect(Number(left!.n)).toBe(0);
  });

  it('a dispatcher run sends one statement per batch, and one to find the outbox empty', async () => {
    // The test before left every event dispatched.
    await publish(randomUUID(), 5);
    const calls: string[] = [];
    const counted = {
      claim: (...a: Parameters<SqlEventOutbox['claim']>) => (calls.push('claim'), outbox.claim(...a)),
      markAndClaim: (...a: Parameters<SqlEventOutbox['markAndClaim']>) => (calls.push('markAndClaim'), outbox.markAndClaim(...a)),
      markDispatched: (...a: Parameters<SqlEventOutbox['markDispatched']>) => (calls.push('markDispatched'), outbox.markDispatched(...a)),
      release: (...a: Parameters<SqlEventOutbox['release']>) => (calls.push('release'), outbox.release(...a)),
    };
    const seen: DomainEvent[] = [];
    const result = await new DispatchEventsUseCase({ outbox: counted, clock, subscribers: () => [{ name: 's', handle: async (e) => void seen.push(e) }], batchSize: 2 }).execute();
    expect(result).toEqual({ dispatched: 5, failed: 0 });
    expect(seen).toHaveLength(5);
    expect(calls).toEqual(['claim', 'markAndClaim', 'markAndClaim', 'markAndClaim']);
    expect(await stateOf(seen.map((e) => e.id))).toEqual(seen.map((e) => ({ event_id: e.id, dispatched: true, claimed: false })));
  });
});
