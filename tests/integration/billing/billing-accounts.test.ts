import { randomUUID } from 'node:crypto';
import { TypeOrmBillingAccounts } from '../../../adapters/persistence/billing/type-orm-billing-accounts';
import { TypeOrmUsageLedger } from '../../../adapters/persistence/billing/type-orm-usage-ledger';
import { SqlUnitOfWork } from '../../../adapters/persistence/events/sql-unit-of-work';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { Database } from '../../../adapters/persistence/data-source';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

describe.each(DATABASE_KINDS)('billing accounts: customers, webhook event ids, overage reports (%s)', (kind) => {
  let db: Database;
  let accounts: TypeOrmBillingAccounts;
  const newUser = async () => (await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' })).id;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    accounts = new TypeOrmBillingAccounts(db.dataSource);
  });
  afterAll(() => db.close());

  it('keeps the first customer of a user, finds it both ways, and has none for an unknown user', async () => {
    const userId = await newUser();
    const [a, b] = await Promise.all([accounts.attachCustomer(userId, `cus_${randomUUID()}`), accounts.attachCustomer(userId, `cus_${randomUUID()}`)]);
    expect(a!.customerId).toBe(b!.customerId);
    expect(await accounts.findByCustomer(a!.customerId)).toEqual(a);
    expect(await accounts.findByUser(userId)).toEqual({ userId, customerId: a!.customerId, subscriptionId: null, stateAt: null });
    expect(await accounts.attachCustomer(randomUUID(), 'cus_nobody')).toBeNull();
  });

  it('records an event id once, and forgets it when the transaction that recorded it rolls back', async () => {
    const id = `evt_${randomUUID()}`;
    expect(await accounts.recordEvent(id, 'checkout.session.completed')).toBe(true);
    expect(await accounts.recordEvent(id, 'checkout.session.completed')).toBe(false);
    const unit = new SqlUnitOfWork(db.dataSource);
    const other = `evt_${randomUUID()}`;
    await expect(
      unit.run(async () => {
        expect(await accounts.recordEvent(other, 'invoice.payment_failed')).toBe(true);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await accounts.recordEvent(other, 'invoice.payment_failed')).toBe(true);
  });

  it('advances the subscription state only to events not older than the last applied', async () => {
    const userId = await newUser();
    await accounts.attachCustomer(userId, `cus_${randomUUID()}`);
    expect(await accounts.advance(userId, { at: new Date('2026-03-01T10:00:00Z'), subscriptionId: 'sub_1' })).toBe(true);
    expect(await accounts.advance(userId, { at: new Date('2026-03-01T09:59:59Z'), subscriptionId: 'sub_old' })).toBe(false);
    expect(await accounts.advance(userId, { at: new Date('2026-03-01T10:00:00Z') })).toBe(true); // same second: applied
    expect(await accounts.findByUser(userId)).toMatchObject({ subscriptionId: 'sub_1', stateAt: new Date('2026-03-01T10:00:00Z') });
    expect(await accounts.advance(randomUUID(), { at: new Date() })).toBe(false);
  });

  it('lists overage not reported yet for users with a customer, and moves the reported total only from what it was', async () => {
    const userId = await newUser();
    const withoutCustomer = await newUser();
    const period = { start: new Date('2026-02-01T00:00:00Z'), end: new Date('2026-03-01T00:00:00Z') };
    const ledger = new TypeOrmUsageLedger(db.dataSource);
    for (const u of [userId, withoutCustomer]) {
      await ledger.reserve({ userId: u, period, tokens: 0, tokenLimit: null, messageLimit: null });
      await ledger.settle({ userId: u, period, reservedTokens: 0, usedTokens: 1500, ok: true, ownKey: false, includedTokens: 1000 });
    }
    const customerId = `cus_${randomUUID()}`;
    await accounts.attachCustomer(userId, customerId);
    const due = (await accounts.overageDue(1000)).filter((d) => d.userId === userId || d.userId === withoutCustomer);
    expect(due).toEqual([{ userId, customerId, periodStart: period.start, periodEnd: period.end, overageTokens: 500, reportedTokens: 0 }]);

    const marks = await Promise.all([accounts.markReported(userId, period.start, 0, 500), accounts.markReported(userId, period.start, 0, 500)]);
    expect(marks.sort()).toEqual([false, true]);
    expect((await accounts.overageDue(1000)).filter((d) => d.userId === userId)).toEqual([]);
    await ledger.reserve({ userId, period, tokens: 0, tokenLimit: null, messageLimit: null });
    await ledger.settle({ userId, period, reservedTokens: 0, usedTokens: 200, ok: true, ownKey: false, includedTokens: 1000 });
    expect((await accounts.overageDue(1000)).filter((d) => d.userId === userId)).toEqual([expect.objectContaining({ overageTokens: 700, reportedTokens: 500 })]);
    expect(await accounts.markReported(userId, period.start, 0, 700)).toBe(false);
    expect(await accounts.markReported(userId, period.start, 500, 700)).toBe(true);
  });
});
