import { randomUUID } from 'node:crypto';
import { TypeOrmUsageLedger } from '../../../adapters/persistence/billing/type-orm-usage-ledger';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { Database } from '../../../adapters/persistence/data-source';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const period: BillingPeriod = { start: new Date('2026-03-05T08:00:00Z'), end: new Date('2026-04-05T08:00:00Z') };
const LEASE_MS = 30_000;

/**
 * A reservation belongs to the process that made it, through a lease that process renews: once the lease
 * has run out (the process was killed), any other process's sweep gives the tokens back, once, and a late
 * settlement by the holder does not give them back a second time. Each ledger is one process; the clock
 * is moved by hand.
 */
describe.each(DATABASE_KINDS)('token reservations outlive their process by the lease only (%s)', (kind) => {
  let db: Database;
  let time = Date.parse('2026-03-10T12:00:00Z');
  const clock = { now: () => new Date(time) };
  const ledger = () => new TypeOrmUsageLedger(db.dataSource, { leaseMs: LEASE_MS, clock });
  const newUser = async () => (await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' })).id;
  const reserve = (l: TypeOrmUsageLedger, userId: string, tokens: number) => l.reserve({ userId, period, tokens, tokenLimit: 10_000, messageLimit: null });

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.close());

  it('gives back the holds of a process whose lease ran out, keeps those of a live one, and never twice', async () => {
    const userId = await newUser();
    const killed = ledger();
    const alive = ledger();
    await Promise.all([killed.renew(), alive.renew()]);
    const lost = await reserve(killed, userId, 2_000);
    const kept = await reserve(alive, userId, 500);
    expect(lost).toMatchObject({ ok: true, holdId: expect.any(String) });
    expect(await alive.current(userId, period)).toMatchObject({ tokensReserved: 2_500, messagesUsed: 2 });

    // Within the lease nothing is given back.
    time += LEASE_MS - 1_000;
    expect(await alive.releaseExpired()).toBe(0);
    // The live process renews; the killed one cannot.
    await alive.renew();
    time += 2_000;
    expect(await alive.releaseExpired()).toBe(1);
    expect(await alive.current(userId, period)).toMatchObject({ tokensReserved: 500, tokensUsed: 0, messagesUsed: 2 });
    expect(await alive.releaseExpired()).toBe(0);

    // The holder was only stalled, not dead: its late settlement records what was used, and gives back nothing again.
    await killed.settle({ userId, period, reservedTokens: 2_000, holdId: lost.ok ? lost.holdId : undefined, usedTokens: 300, ok: true, ownKey: false, includedTokens: 10_000 });
    await alive.settle({ userId, period, reservedTokens: 500, holdId: kept.ok ? kept.holdId : undefined, usedTokens: 100, ok: true, ownKey: false, includedTokens: 10_000 });
    expect(await alive.current(userId, period)).toEqual({ tokensUsed: 400, tokensReserved: 0, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 2 });
  });

  it('a hold made before its process took a lease is given back a lease after it was made', async () => {
    const userId = await newUser();
    const early = ledger();
    await reserve(early, userId, 700);
    time += LEASE_MS - 1;
    expect(await ledger().releaseExpired()).toBe(0);
    time += 2;
    expect(await ledger().releaseExpired()).toBe(1);
    expect((await early.current(userId, period)).tokensReserved).toBe(0);
  });

  it('concurrent sweeps, settlements and reservations keep the counters exact', async () => {
    const userId = await newUser();
    const dead = ledger();
    const live = ledger();
    await Promise.all([dead.renew(), live.renew()]);
    await Promise.all(Array.from({ length: 10 }, () => reserve(dead, userId, 100)));
    const liveHolds = await Promise.all(Array.from({ length: 10 }, () => reserve(live, userId, 50)));
    time += LEASE_MS + 1;
    await live.renew();
    const sweepers = [ledger(), ledger(), live];
    await Promise.all([
      ...sweepers.map((s) => s.releaseExpired()),
      ...liveHolds.map((h) => live.settle({ userId, period, reservedTokens: 50, holdId: h.ok ? h.holdId : undefined, usedTokens: 20, ok: true, ownKey: false, includedTokens: 10_000 })),
      ...Array.from({ length: 5 }, () => reserve(live, userId, 10)),
    ]);
    expect(await live.current(userId, period)).toEqual({ tokensUsed: 200, tokensReserved: 50, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 25 });
    expect(await live.releaseExpired()).toBe(0);
  });
});
