import { randomUUID } from 'node:crypto';
import { InMemorySubscriptionRepository } from '../../../adapters/persistence/billing/in-memory-subscription.repository';
import { InMemoryUsageLedger } from '../../../adapters/persistence/billing/in-memory-usage-ledger';
import { TypeOrmSubscriptionRepository } from '../../../adapters/persistence/billing/type-orm-subscription.repository';
import { TypeOrmUsageLedger } from '../../../adapters/persistence/billing/type-orm-usage-ledger';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import type { SubscriptionRepository } from '../../../core/billing/ports/subscription-repository.port';
import type { UsageLedger } from '../../../core/billing/ports/usage-ledger.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

type Variant = {
  subscriptions: SubscriptionRepository;
  usage: UsageLedger;
  /** A second ledger on the same store, as another process has (the in-memory store has one). */
  otherUsage(): UsageLedger;
  /** A user and when they registered. */
  newUser(): Promise<{ id: string; registeredAt: Date }>;
  close(): Promise<void>;
};

const variants: Array<[string, () => Promise<Variant>]> = [
  [
    'in-memory',
    async () => {
      const subscriptions = new InMemorySubscriptionRepository();
      const ledger = new InMemoryUsageLedger();
      return {
        subscriptions,
        usage: ledger,
        otherUsage: () => ledger,
        newUser: async () => {
          const user = { id: randomUUID(), registeredAt: new Date('2026-01-05T08:00:00Z') };
          subscriptions.users.set(user.id, user.registeredAt);
          return user;
        },
        close: async () => undefined,
      };
    },
  ],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<Variant>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      const users = new TypeOrmUserRepository(db.dataSource);
      return {
        subscriptions: new TypeOrmSubscriptionRepository(db.dataSource),
        usage: new TypeOrmUsageLedger(db.dataSource),
        otherUsage: () => new TypeOrmUsageLedger(db.dataSource),
        newUser: async () => {
          const u = await users.create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
          return { id: u.id, registeredAt: u.createdAt };
        },
        close: () => db.close(),
      };
    },
  ]),
];

const period: BillingPeriod = { start: new Date('2026-03-05T08:00:00Z'), end: new Date('2026-04-05T08:00:00Z') };
const next: BillingPeriod = { start: period.end, end: new Date('2026-05-05T08:00:00Z') };

describe.each(variants)('billing repositories (%s)', (_name, open) => {
  let v: Variant;
  beforeAll(async () => {
    v = await open();
  });
  afterAll(() => v.close());

  describe('subscriptions', () => {
    it('puts a user on Free from registration on first use, once', async () => {
      const user = await v.newUser();
      const [a, b] = await Promise.all([v.subscriptions.ensure(user.id), v.subscriptions.ensure(user.id)]);
      expect(a).toEqual({ userId: user.id, plan: 'free', status: 'active', startedAt: user.registeredAt });
      expect(b).toEqual(a);
    });

    it('changes plan and status and restarts the period', async () => {
      const user = await v.newUser();
      await v.subscriptions.ensure(user.id);
      const at = new Date('2026-03-10T09:00:00Z');
      expect(await v.subscriptions.change(user.id, { plan: 'pro', status: 'trialing', startedAt: at })).toEqual({ userId: user.id, plan: 'pro', status: 'trialing', startedAt: at });
      expect(await v.subscriptions.ensure(user.id)).toEqual({ userId: user.id, plan: 'pro', status: 'trialing', startedAt: at });
    });

    it('knows no subscription for a user that does not exist', async () => {
      expect(await v.subscriptions.ensure(randomUUID())).toBeNull();
      expect(await v.subscriptions.change(randomUUID(), { plan: 'pro', status: 'active', startedAt: new Date() })).toBeNull();
    });
  });

  describe('usage ledger', () => {
    it('starts every period at zero', async () => {
      const user = await v.newUser();
      expect(await v.usage.current(user.id, period)).toEqual({ tokensUsed: 0, tokensReserved: 0, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 0 });
    });

    it('holds tokens and a message, then swaps the hold for what was used', async () => {
      const user = await v.newUser();
      expect(await v.usage.reserve({ userId: user.id, period, tokens: 2_000, tokenLimit: null, messageLimit: null })).toMatchObject({ ok: true });
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensReserved: 2_000, messagesUsed: 1 });
      await v.usage.settle({ userId: user.id, period, reservedTokens: 2_000, usedTokens: 321, ok: true, ownKey: false, includedTokens: 1_000 });
      expect(await v.usage.current(user.id, period)).toEqual({ tokensUsed: 321, tokensReserved: 0, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 1 });
    });

    it('gives the hold and the message back when the call failed', async () => {
      const user = await v.newUser();
      await v.usage.reserve({ userId: user.id, period, tokens: 500, tokenLimit: null, messageLimit: null });
      await v.usage.settle({ userId: user.id, period, reservedTokens: 500, usedTokens: 0, ok: false, ownKey: false, includedTokens: null });
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensUsed: 0, tokensReserved: 0, messagesUsed: 0 });
    });

    it('holds and counts the tokens of a call that counts no message (an embedding call), failed or not', async () => {
      const user = await v.newUser();
      await v.usage.reserve({ userId: user.id, period, tokens: 1, tokenLimit: null, messageLimit: 1 });
      const embed = () => v.usage.reserve({ userId: user.id, period, tokens: 40, tokenLimit: 1_000, messageLimit: null, messages: 0 });
      expect(await embed()).toMatchObject({ ok: true });
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensReserved: 41, messagesUsed: 1 });
      await v.usage.settle({ userId: user.id, period, reservedTokens: 40, usedTokens: 37, ok: true, ownKey: false, includedTokens: 1_000, messages: 0 });
      expect(await embed()).toMatchObject({ ok: true });
      await v.usage.settle({ userId: user.id, period, reservedTokens: 40, usedTokens: 5, ok: false, ownKey: false, includedTokens: 1_000, messages: 0 });
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensUsed: 42, tokensReserved: 1, messagesUsed: 1 });
    });

    it('counts own-key tokens apart, never as quota or overage', async () => {
      const user = await v.newUser();
      await v.usage.reserve({ userId: user.id, period, tokens: 0, tokenLimit: null, messageLimit: null });
      await v.usage.settle({ userId: user.id, period, reservedTokens: 0, usedTokens: 5_000, ok: true, ownKey: true, includedTokens: 1_000 });
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensUsed: 0, ownKeyTokens: 5_000, overageTokens: 0 });
    });

    it('records exactly the tokens past the included ones as overage', async () => {
      const user = await v.newUser();
      for (const used of [600, 300, 250, 400]) {
        await v.usage.reserve({ userId: user.id, period, tokens: 100, tokenLimit: null, messageLimit: null });
        await v.usage.settle({ userId: user.id, period, reservedTokens: 100, usedTokens: used, ok: true, ownKey: false, includedTokens: 1_000 });
      }
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensUsed: 1_550, overageTokens: 550, tokensReserved: 0 });
    });

    it('admits while anything is left beside used and held tokens, then refuses and says which limit', async () => {
      const user = await v.newUser();
      const reserve = (tokens: number) => v.usage.reserve({ userId: user.id, period, tokens, tokenLimit: 1_000, messageLimit: 10 });
      expect(await reserve(900)).toMatchObject({ ok: true });
      // 100 left: admitted, even though its hold may turn out larger (at most one request past the limit).
      expect(await reserve(150)).toMatchObject({ ok: true });
      expect(await reserve(1)).toMatchObject({ ok: false, exceeded: 'tokens', usage: { tokensReserved: 1_050, messagesUsed: 2 } });
      // Holds released: there is room again.
      await v.usage.settle({ userId: user.id, period, reservedTokens: 1_050, usedTokens: 100, ok: true, ownKey: false, includedTokens: 1_000 });
      expect(await reserve(10)).toMatchObject({ ok: true });
    });

    it('refuses past the message limit', async () => {
      const user = await v.newUser();
      const reserve = () => v.usage.reserve({ userId: user.id, period, tokens: 0, tokenLimit: null, messageLimit: 2 });
      expect((await reserve()).ok).toBe(true);
      expect((await reserve()).ok).toBe(true);
      expect(await reserve()).toMatchObject({ ok: false, exceeded: 'messages' });
    });

    it('keeps periods apart', async () => {
      const user = await v.newUser();
      await v.usage.reserve({ userId: user.id, period, tokens: 0, tokenLimit: null, messageLimit: 1 });
      expect((await v.usage.reserve({ userId: user.id, period: next, tokens: 0, tokenLimit: null, messageLimit: 1 })).ok).toBe(true);
      expect((await v.usage.reserve({ userId: user.id, period, tokens: 0, tokenLimit: null, messageLimit: 1 })).ok).toBe(false);
    });

    it('lets 50 concurrent reservations at the edge take exactly what is left', async () => {
      const user = await v.newUser();
      // The first reservation of the period runs concurrently with the others: its row is created on the way.
      const results = await Promise.all(
        Array.from({ length: 50 }, () => v.usage.reserve({ userId: user.id, period, tokens: 100, tokenLimit: 1_000, messageLimit: null })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(10);
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensReserved: 1_000, messagesUsed: 10 });
    });

    it('decides a burst of reservations as it would decide them one after the other', async () => {
      const user = await v.newUser();
      const reserve = (tokens: number, tokenLimit: number | null) => v.usage.reserve({ userId: user.id, period, tokens, tokenLimit, messageLimit: null });
      // Arriving together, the last three wait for the first and are then decided as one batch would be:
      // the third is refused (1,200 held, limit 1,000), the fourth has no token limit.
      const results = await Promise.all([reserve(600, 1_000), reserve(600, 1_000), reserve(10, 1_000), reserve(10, null)]);
      expect(results.map((r) => r.ok)).toEqual([true, true, false, true]);
      expect(results[2]).toMatchObject({ exceeded: 'tokens' });
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensReserved: 1_210, messagesUsed: 3 });
    });

    it('counts overage in order when settlements under different allowances arrive together', async () => {
      const user = await v.newUser();
      await Promise.all(Array.from({ length: 4 }, () => v.usage.reserve({ userId: user.id, period, tokens: 100, tokenLimit: null, messageLimit: null })));
      const settle = (includedTokens: number | null) =>
        v.usage.settle({ userId: user.id, period, reservedTokens: 100, usedTokens: 400, ok: true, ownKey: false, includedTokens });
      // One after the other: 0 -> 400 -> 800 (no overage), 800 -> 1,200 without allowance, then 400 past 1,000.
      await Promise.all([settle(1_000), settle(1_000), settle(null), settle(1_000)]);
      expect(await v.usage.current(user.id, period)).toMatchObject({ tokensUsed: 1_600, overageTokens: 400, tokensReserved: 0 });
    });

    it('takes exactly what is left when two processes reserve at once', async () => {
      const user = await v.newUser();
      const ledgers = [v.usage, v.otherUsage()];
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => ledgers[i % 2]!.reserve({ userId: user.id, period, tokens: 100, tokenLimit: 1_500, messageLimit: 12 })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(12);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.exceeded === 'messages')).toBe(true);
      await Promise.all(
        results.filter((r) => r.ok).map((_, i) => ledgers[i % 2]!.settle({ userId: user.id, period, reservedTokens: 100, usedTokens: 150, ok: true, ownKey: false, includedTokens: 1_000 })),
      );
      expect(await v.usage.current(user.id, period)).toEqual({ tokensUsed: 1_800, tokensReserved: 0, overageTokens: 800, ownKeyTokens: 0, messagesUsed: 12 });
    });

    it('settles and admits correctly when settlements and reservations of two processes interleave', async () => {
      const user = await v.newUser();
      const ledgers = [v.usage, v.otherUsage()];
      const reserve = (i: number) => ledgers[i % 2]!.reserve({ userId: user.id, period, tokens: 100, tokenLimit: 1_000, messageLimit: null });
      expect((await Promise.all([0, 1, 2, 3, 4].map(reserve))).every((r) => r.ok)).toBe(true);
      const settle = (i: number) =>
        ledgers[i % 2]!.settle({ userId: user.id, period, reservedTokens: 100, usedTokens: 100, ok: true, ownKey: false, includedTokens: 10_000 });
      // Whatever the order, 500 tokens are held or used when the new ones arrive: five more fit under 1,000.
      const [, results] = await Promise.all([Promise.all([0, 1, 2, 3, 4].map(settle)), Promise.all(Array.from({ length: 10 }, (_, i) => reserve(i)))]);
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      expect(await v.usage.current(user.id, period)).toEqual({ tokensUsed: 500, tokensReserved: 500, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 10 });
    });

    it('loses no count when 50 settlements run at once', async () => {
      const user = await v.newUser();
      await Promise.all(Array.from({ length: 50 }, () => v.usage.reserve({ userId: user.id, period, tokens: 40, tokenLimit: null, messageLimit: null })));
      await Promise.all(
        Array.from({ length: 50 }, () => v.usage.settle({ userId: user.id, period, reservedTokens: 40, usedTokens: 30, ok: true, ownKey: false, includedTokens: 1_000 })),
      );
      expect(await v.usage.current(user.id, period)).toEqual({ tokensUsed: 1_500, tokensReserved: 0, overageTokens: 500, ownKeyTokens: 0, messagesUsed: 50 });
    });
  });
});
