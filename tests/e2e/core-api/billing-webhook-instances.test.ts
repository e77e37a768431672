import { startBillingStack, type BillingStack } from '../../support/stripe-fake/billing-stack';
import { startSecondCoreApi, userWithApplication, type SecondInstance } from '../../support/test-stack';
import { waitFor } from '../../support/wait-for';

const postgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/**
 * Two core API instances on one PostgreSQL database receive the same Stripe event at the same moment (Stripe
 * retrying, or two endpoints behind a load balancer): it is applied once. The event id is inserted in the
 * transaction of the change under a unique key, so the second transaction waits for the first and finds it.
 */
postgres('billing webhooks across two instances (postgres)', () => {
  let stack: BillingStack;
  let second: SecondInstance;

  beforeAll(async () => {
    // Instances share cache invalidations over Redis, as deployed; without it each trusts its cache for no time.
    const env = process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, CACHE_TTL_MS: '600000' } : { CACHE_TTL_MS: '0' };
    stack = await startBillingStack({ database: 'postgres', env });
    second = await startSecondCoreApi(stack as unknown as Parameters<typeof startSecondCoreApi>[0]);
  });
  afterAll(async () => {
    await second?.close();
    await stack?.close();
  });

  it('applies the same event, delivered to both instances at once, exactly once', async () => {
    for (let round = 0; round < 5; round++) {
      const owner = await userWithApplication(stack.client);
      const checkout = await stack.client.post('/api/billing/subscribe', { plan: 'pro' }, { token: owner.token });
      expect(checkout.status).toBe(200);
      // Both instances have the Free subscription cached.
      for (const client of [stack.client, second.client]) expect((await client.get('/api/billing/subscription', { token: owner.token })).body.plan).toBe('free');
      const completed = stack.stripe.completeCheckout(checkout.body.sessionId);
      const failed = stack.stripe.failPayment(stack.stripe.sessions.get(checkout.body.sessionId)!.subscription!);

      const first = await Promise.all([stack.deliver(completed), stack.deliver(completed, { client: second.client })]);
      expect(first.map((r) => r.status)).toEqual([200, 200]);
      expect(first.map((r) => r.body.result).sort()).toEqual(['applied', 'duplicate']);
      const then = await Promise.all([stack.deliver(failed, { client: second.client }), stack.deliver(failed), stack.deliver(failed, { client: second.client })]);
      expect(then.map((r) => r.body.result).sort()).toEqual(['applied', 'duplicate', 'duplicate']);

      const updates = await stack.infra.dataSource.query(`SELECT data FROM event_outbox WHERE owner_id = $1 AND type = 'subscription.updated' ORDER BY seq`, [owner.user.id]);
      expect(updates.map((u: { data: unknown }) => u.data)).toEqual([
        { plan: 'pro', status: 'active', previousPlan: 'free', previousStatus: 'active' },
        { plan: 'pro', status: 'past_due', previousPlan: 'pro', previousStatus: 'active' },
      ]);
      const recorded = await stack.infra.dataSource.query(`SELECT event_id FROM billing_webhook_events WHERE event_id = ANY($1)`, [[completed.id, failed.id]]);
      expect(recorded).toHaveLength(2);
      // Both instances read the outcome (the cache of the other one is invalidated across instances).
      for (const client of [stack.client, second.client]) {
        await waitFor(async () => (await client.get('/api/billing/subscription', { token: owner.token })).body.status === 'past_due');
      }
    }
  });
});
