import type { DomainEvent } from '../../../core/events/domain/domain-event';
import type { EventOutbox } from '../../../core/events/ports/event-outbox.port';
import type { EventSubscriber } from '../../../core/events/ports/event-subscriber.port';
import { DispatchEventsUseCase } from '../../../core/events/use-cases/dispatch-events.use-case';

/** The outbox's contract in memory: leases, dispatched marks, releases. */
class InMemoryEventOutbox implements EventOutbox {
  rows: Array<{ event: DomainEvent; dispatchedAt: Date | null; leasedUntil: Date | null; error?: string }> = [];
  add(event: DomainEvent) {
    this.rows.push({ event, dispatchedAt: null, leasedUntil: null });
  }
  async claim(limit: number, now: Date, leaseUntil: Date) {
    const free = this.rows.filter((r) => !r.dispatchedAt && (!r.leasedUntil || r.leasedUntil <= now)).slice(0, limit);
    for (const r of free) r.leasedUntil = leaseUntil;
    return free.map((r) => r.event);
  }
  async markDispatched(ids: string[], at: Date) {
    for (const r of this.rows) if (ids.includes(r.event.id)) r.dispatchedAt = at;
  }
  async release(ids: string[], retryAt: Date, error: string) {
    for (const r of this.rows) if (ids.includes(r.event.id)) Object.assign(r, { leasedUntil: retryAt, error });
  }
}

const anEvent = (n: number): DomainEvent => ({
  id: `evt_${n}`,
  type: 'application.created',
  ownerId: 'owner',
  applicationId: 'app',
  timestamp: new Date(0).toISOString(),
  data: { applicationId: 'app', name: `App ${n}` },
});

function recorder(name: string, fail?: (e: DomainEvent) => boolean): EventSubscriber & { seen: string[] } {
  const seen: string[] = [];
  return { name, seen, handle: async (e) => { seen.push(e.id); if (fail?.(e)) throw new Error(`${name} failed`); } };
}

/** The same outbox with the one-statement mark-and-claim, recording the round trips the dispatcher makes. */
class OneStatementOutbox extends InMemoryEventOutbox {
  calls: string[] = [];
  override async claim(limit: number, now: Date, leaseUntil: Date) {
    this.calls.push('claim');
    return super.claim(limit, now, leaseUntil);
  }
  override async markDispatched(ids: string[], at: Date) {
    this.calls.push('markDispatched');
    return super.markDispatched(ids, at);
  }
  async markAndClaim(done: string[], at: Date, limit: number, now: Date, leaseUntil: Date) {
    this.calls.push('markAndClaim');
    await super.markDispatched(done, at);
    return super.claim(limit, now, leaseUntil);
  }
}

describe('DispatchEventsUseCase', () => {
  let now = new Date('2026-01-01T00:00:00Z');
  const clock = { now: () => now };

  it('hands every event to every subscriber in outbox order and marks them dispatched', async () => {
    const outbox = new InMemoryEventOutbox();
    for (let i = 1; i <= 5; i++) outbox.add(anEvent(i));
    const a = recorder('a');
    const b = recorder('b');
    const result = await new DispatchEventsUseCase({ outbox, clock, subscribers: () => [a, b], batchSize: 2 }).execute();
    expect(result).toEqual({ dispatched: 5, failed: 0 });
    expect(a.seen).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']);
    expect(b.seen).toEqual(a.seen);
    expect(outbox.rows.every((r) => r.dispatchedAt)).toBe(true);
  });

  it('keeps an event a subscriber failed on, and offers it again after the retry delay', async () => {
    const outbox = new InMemoryEventOutbox();
    outbox.add(anEvent(1));
    outbox.add(anEvent(2));
    let failing = true;
    const flaky = recorder('flaky', (e) => failing && e.id === 'evt_1');
    const errors: string[] = [];
    const dispatch = new DispatchEventsUseCase({ outbox, clock, subscribers: () => [flaky], retryDelayMs: 30_000, onSubscriberError: (s, id) => errors.push(`${s}:${id}`) });
    expect(await dispatch.execute()).toEqual({ dispatched: 1, failed: 1 });
    expect(errors).toEqual(['flaky:evt_1']);
    expect(outbox.rows[0]).toMatchObject({ dispatchedAt: null, error: 'flaky failed' });
    // Not before the delay…
    expect(await dispatch.execute()).toEqual({ dispatched: 0, failed: 0 });
    failing = false;
    now = new Date(now.getTime() + 30_000);
    expect(await dispatch.execute()).toEqual({ dispatched: 1, failed: 0 });
    expect(flaky.seen).toEqual(['evt_1', 'evt_2', 'evt_1']);
  });

  it('leaves an event leased by another dispatcher alone until its lease runs out (a crashed instance)', async () => {
    const outbox = new InMemoryEventOutbox();
    outbox.add(anEvent(1));
    await outbox.claim(10, now, new Date(now.getTime() + 60_000)); // taken by an instance that then died
    const sub = recorder('s');
    const dispatch = new DispatchEventsUseCase({ outbox, clock, subscribers: () => [sub], leaseMs: 60_000 });
    expect(await dispatch.execute()).toEqual({ dispatched: 0, failed: 0 });
    now = new Date(now.getTime() + 60_000);
    expect(await dispatch.execute()).toEqual({ dispatched: 1, failed: 0 });
    expect(sub.seen).toEqual(['evt_1']);
  });

  it('marks each batch dispatched with the next claim where the outbox can, one round trip per batch', async () => {
    const outbox = new OneStatementOutbox();
    for (let i = 1; i <= 5; i++) outbox.add(anEvent(i));
    const sub = recorder('s');
    expect(await new DispatchEventsUseCase({ outbox, clock, subscribers: () => [sub], batchSize: 2 }).execute()).toEqual({ dispatched: 5, failed: 0 });
    expect(sub.seen).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']);
    expect(outbox.calls).toEqual(['claim', 'markAndClaim', 'markAndClaim', 'markAndClaim']);
    expect(outbox.rows.every((r) => r.dispatchedAt)).toBe(true);
  });

  it('marks nothing for a batch that only failed, and ends the run', async () => {
    const outbox = new OneStatementOutbox();
    outbox.add(anEvent(1));
    const failing = recorder('f', () => true);
    expect(await new DispatchEventsUseCase({ outbox, clock, subscribers: () => [failing] }).execute()).toEqual({ dispatched: 0, failed: 1 });
    expect(outbox.calls).toEqual(['claim']);
    expect(outbox.rows[0]).toMatchObject({ dispatchedAt: null, error: 'f failed' });
  });

  it('where every event is announced in this process, ends a run after a short batch nothing woke it during, and marks that batch with the next claim', async () => {
    const outbox = new OneStatementOutbox();
    let wakes = 0;
    for (let i = 1; i <= 3; i++) outbox.add(anEvent(i));
    const publishedMeanwhile = anEvent(4);
    const sub: EventSubscriber & { seen: string[] } = {
      name: 's',
      seen: [],
      async handle(e) {
        this.seen.push(e.id);
        // An event published (and announced) while the run hands over the first one.
        if (e.id === 'evt_1') {
          outbox.add(publishedMeanwhile);
          wakes++;
        }
      },
    };
    const dispatch = new DispatchEventsUseCase({ outbox, clock, subscribers: () => [sub], batchSize: 10, wakes: () => wakes });
    expect(await dispatch.execute()).toEqual({ dispatched: 4, failed: 0 });
    // Woken during the first batch: claimed once more; the second batch was short and nothing woke it: the run ends.
    expect(outbox.calls).toEqual(['claim', 'markAndClaim']);
    expect(sub.seen).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4']);
    expect(outbox.rows.map((r) => !!r.dispatchedAt)).toEqual([true, true, true, false]);
    // Leased meanwhile: nobody else takes it, and the next run (a wake, the sweep) marks it with its claim.
    expect(outbox.rows[3]!.leasedUntil!.getTime()).toBeGreaterThan(now.getTime());
    outbox.add(anEvent(5));
    wakes++;
    expect(await dispatch.execute()).toEqual({ dispatched: 1, failed: 0 });
    expect(outbox.calls).toEqual(['claim', 'markAndClaim', 'markAndClaim']);
    expect(outbox.rows.map((r) => !!r.dispatchedAt)).toEqual([true, true, true, true, false]);
    await dispatch.flush();
    expect(outbox.rows.every((r) => r.dispatchedAt)).toBe(true);
    expect(sub.seen).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']);
    // Nothing left to mark: flush sends nothing.
    await dispatch.flush();
    expect(outbox.calls).toEqual(['claim', 'markAndClaim', 'markAndClaim', 'markDispatched']);
  });

  it('claims until the outbox is empty after a full batch, announced or not', async () => {
    const outbox = new OneStatementOutbox();
    for (let i = 1; i <= 4; i++) outbox.add(anEvent(i));
    const sub = recorder('s');
    const dispatch = new DispatchEventsUseCase({ outbox, clock, subscribers: () => [sub], batchSize: 2, wakes: () => 0 });
    expect(await dispatch.execute()).toEqual({ dispatched: 4, failed: 0 });
    // Two full batches, then one to find it empty (which marks the second).
    expect(outbox.calls).toEqual(['claim', 'markAndClaim', 'markAndClaim']);
    expect(outbox.rows.every((r) => r.dispatchedAt)).toBe(true);
  });
});
