import { randomUUID } from 'node:crypto';
import { TypeOrmUsageLedger } from '../../../adapters/persistence/billing/type-orm-usage-ledger';
import { isEmbedded, type Database } from '../../../adapters/persistence/data-source';
import { SqlUnitOfWork } from '../../../adapters/persistence/events/sql-unit-of-work';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const period: BillingPeriod = { start: new Date('2026-03-05T08:00:00Z'), end: new Date('2026-04-05T08:00:00Z') };

/**
 * A ledger that is the only writer of the counters (one process on the embedded database) knows each row's
 * counters from its own writes, so the usage-threshold watcher reads none per answer. Each case opens its own
 * database: a second ledger on the same one makes the first stop answering from memory.
 */
describe('counters known from the ledger’s own writes', () => {
  let db: Database;
  beforeEach(async () => {
    db = await openTestDatabase('pglite');
  });
  afterEach(() => db.close());

  const newUser = async () => (await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' })).id;
  const settle = (ledger: TypeOrmUsageLedger, userId: string, holdId: string | undefined, used: number) =>
    ledger.settle({ userId, period, reservedTokens: 100, holdId, usedTokens: used, ok: true, ownKey: false, includedTokens: 1_000 });

  it('answers what the last reservation or settlement left, as a read of the row would', async () => {
    expect(isEmbedded(db.dataSource)).toBe(true);
    const ledger = new TypeOrmUsageLedger(db.dataSource, undefined, { soleWriter: true });
    const userId = await newUser();
    expect(ledger.known(userId, period)).toBeUndefined();
    const held = await ledger.reserve({ userId, period, tokens: 100, tokenLimit: 10_000, messageLimit: 50 });
    expect(held.ok).toBe(true);
    expect(ledger.known(userId, period)).toEqual(await ledger.current(userId, period));
    expect(ledger.known(userId, period)).toMatchObject({ messagesUsed: 1, tokensReserved: 100, tokensUsed: 0 });
    await settle(ledger, userId, held.ok ? held.holdId : undefined, 1_200);
    expect(ledger.known(userId, period)).toEqual(await ledger.current(userId, period));
    expect(ledger.known(userId, period)).toMatchObject({ messagesUsed: 1, tokensReserved: 0, tokensUsed: 1_200, overageTokens: 200 });
    // Another period's row is another entry.
    expect(ledger.known(userId, { start: period.end, end: new Date('2026-05-05T08:00:00Z') })).toBeUndefined();
  });

  it('knows nothing when it is not the only writer: not told so, or a second ledger on the same database', async () => {
    const userId = await newUser();
    const shared = new TypeOrmUsageLedger(db.dataSource);
    await shared.reserve({ userId, period, tokens: 0, tokenLimit: null, messageLimit: null });
    expect(shared.known(userId, period)).toBeUndefined();
    const sole = new TypeOrmUsageLedger(db.dataSource, undefined, { soleWriter: true });
    await sole.reserve({ userId, period, tokens: 0, tokenLimit: null, messageLimit: null });
    // Two ledgers in this process write the row: what one of them wrote last is not the row.
    expect(sole.known(userId, period)).toBeUndefined();
    expect((await sole.current(userId, period)).messagesUsed).toBe(2);
  });

  it('does not remember a write made inside a transaction (it may be rolled back)', async () => {
    const ledger = new TypeOrmUsageLedger(db.dataSource, undefined, { soleWriter: true });
    const userId = await newUser();
    await ledger.reserve({ userId, period, tokens: 0, tokenLimit: null, messageLimit: null });
    expect(ledger.known(userId, period)).toMatchObject({ messagesUsed: 1 });
    await expect(
      new SqlUnitOfWork(db.dataSource).run(async () => {
        await ledger.reserve({ userId, period, tokens: 0, tokenLimit: null, messageLimit: null });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(ledger.known(userId, period)).toBeUndefined();
    expect((await ledger.current(userId, period)).messagesUsed).toBe(1);
  });
});

describe.each(DATABASE_KINDS.filter((k) => k === 'postgres'))('a server database (%s)', (kind) => {
  it('is not embedded: its counters may be written by other processes', async () => {
    const db = await openTestDatabase(kind);
    try {
      expect(isEmbedded(db.dataSource)).toBe(false);
    } finally {
      await db.close();
    }
  });
});
