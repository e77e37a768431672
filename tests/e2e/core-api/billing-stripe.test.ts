import { InMemoryMarketplaceLicenses } from '../../../adapters/payments/in-memory.marketplace-licenses';
import { ReportOverageUseCase } from '../../../core/billing/use-cases/report-overage.use-case';
import { startBillingStack, type BillingStack } from '../../support/stripe-fake/billing-stack';
import { DATABASE_KINDS } from '../../support/test-database';
import { PLATFORM_KEYS, registerUser, startCoreApi, userWithApplication } from '../../support/test-stack';
import { waitFor } from '../../support/wait-for';

const OWN_KEY = 'sk-own-billing-key-7777';
const ITEM_ID = 'a3c1e2d4-5b6f-4a7b-8c9d-0e1f2a3b4c5d';

describe.each(DATABASE_KINDS)('core API: billing through Stripe, against the local Stripe fake (%s)', (database) => {
  let stack: BillingStack;
  const licenses = new InMemoryMarketplaceLicenses();
  const db = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => stack.infra.dataSource.query(sql, params);
  const subscriptionOf = async (token: string) => (await stack.client.get('/api/billing/subscription', { token })).body;
  const usageOf = async (token: string) => (await stack.client.get('/api/billing/usage', { token })).body;
  const updatesOf = (userId: string) =>
    db<{ data: Record<string, unknown> }>(`SELECT data FROM event_outbox WHERE owner_id = $1 AND type = 'subscription.updated' ORDER BY seq`, [userId]).then((r) => r.map((e) => e.data));
  const eventsRecorded = async () => Number((await db<{ n: string }>(`SELECT count(*) AS n FROM billing_webhook_events`))[0]!.n);
  const reportOverage = () => stack.resolve.get(ReportOverageUseCase).execute();

  /** A user with an application and a conversation; `subscribed` goes through Checkout to an active Starter plan. */
  const anOwner = async () => {
    const owner = await userWithApplication(stack.client);
    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    const chat = () => stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Hello there' }, { token: owner.token });
    return { ...owner, chat };
  };
  const subscribed = async (plan: 'starter' | 'pro' = 'starter') => {
    const owner = await anOwner();
    const checkout = await stack.client.post('/api/billing/subscribe', { plan }, { token: owner.token });
    expect(checkout.status).toBe(200);
    const completed = stack.stripe.completeCheckout(checkout.body.sessionId);
    expect((await stack.deliver(completed)).body).toEqual({ received: true, result: 'applied' });
    const subscriptionId = stack.stripe.sessions.get(checkout.body.sessionId)!.subscription!;
    return { ...owner, subscriptionId, completed };
  };

  beforeAll(async () => {
    stack = await startBillingStack({ database, licenses });
  });
  afterAll(() => stack?.close());

  it('runs the whole path: subscribe, checkout, Starter, platform keys, overage reported once, past due, deleted, back to Free', async () => {
    const owner = await anOwner();
    expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'free', status: 'active', effectivePlan: 'free', billing: { customer: false, subscription: false } });

    // Subscribe: a Checkout Session URL; nothing changes before Stripe says the checkout completed.
    const checkout = await stack.client.post('/api/billing/subscribe', { plan: 'starter' }, { token: owner.token });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toBe(`${stack.stripe.url}/checkout/${checkout.body.sessionId}`);
    const session = stack.stripe.sessions.get(checkout.body.sessionId)!;
    expect(session).toMatchObject({ mode: 'subscription', metadata: { userId: owner.user.id, plan: 'starter' } });
    expect(session.line_items.map((l) => l.price)).toEqual([stack.stripe.prices.starter, stack.stripe.prices.overageStarter]);
    expect(stack.stripe.customers.get(session.customer!)).toMatchObject({ email: owner.email, metadata: { userId: owner.user.id } });
    const audit = await db<{ action: string; outcome: string }>(`SELECT action, outcome FROM audit_records WHERE actor_id = $1 AND action LIKE 'billing.%'`, [owner.user.id]);
    expect(audit).toEqual([{ action: 'billing.checkout', outcome: 'success' }]);
    expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'free', billing: { customer: true, subscription: false } });
    expect((await owner.chat()).status).toBe(402);

    // Checkout completed: Starter, active; the platform's keys answer.
    const completed = stack.stripe.completeCheckout(checkout.body.sessionId);
    expect((await stack.deliver(completed)).body).toEqual({ received: true, result: 'applied' });
    expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'starter', status: 'active', effectivePlan: 'starter', overageAllowed: true, billing: { customer: true, subscription: true } });
    stack.emulator!.reset();
    const answer = await owner.chat();
    expect(answer.status).toBe(200);
    expect(stack.emulator!.requests.map((r) => r.apiKey)).toEqual([PLATFORM_KEYS.provider_a]);

    // Past the included tokens: overage, reported by the job once.
    await db(`UPDATE usage_counters SET tokens_used = 99990 WHERE user_id = $1`, [owner.user.id]);
    expect((await owner.chat()).status).toBe(200);
    const overage = (await usageOf(owner.token)).usage.overageTokens as number;
    expect(overage).toBeGreaterThan(0);
    expect(stack.stripe.meterEvents).toHaveLength(0); // nothing from the chat path
    expect(await reportOverage()).toMatchObject({ reported: 1, tokens: overage, failed: 0 });
    expect(await reportOverage()).toMatchObject({ reported: 0, tokens: 0 });
    const mine = () => stack.stripe.meterEvents.filter((e) => e.payload.stripe_customer_id === session.customer);
    expect(mine()).toEqual([expect.objectContaining({ event_name: 'platform_overage_tokens', payload: { stripe_customer_id: session.customer, value: String(overage) } })]);
    // More overage later: only the difference is reported.
    expect((await owner.chat()).status).toBe(200);
    const later = (await usageOf(owner.token)).usage.overageTokens as number;
    expect(await reportOverage()).toMatchObject({ reported: 1, tokens: later - overage });
    expect(mine().map((e) => Number(e.payload.value)).reduce((a, b) => a + b, 0)).toBe(later);

    // Payment failed: past due, the included tokens are a hard limit.
    expect((await stack.deliver(stack.stripe.failPayment(session.subscription!))).body.result).toBe('applied');
    expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'starter', status: 'past_due', effectivePlan: 'starter', overageAllowed: false });
    const refused = await owner.chat();
    expect(refused.status).toBe(402);
    expect(refused.body.message).toMatch(/platform tokens of the Starter plan are used up/);
    await waitFor(async () => (await stack.client.get('/api/notifications', { token: owner.token })).body.some((n: { title: string }) => n.title === 'A payment failed'));

    // Subscription deleted: Free rules (no platform keys; an own key works).
    expect((await stack.deliver(stack.stripe.deleteSubscription(session.subscription!))).body.result).toBe('applied');
    expect(await subscriptionOf(owner.token)).toMatchObject({ status: 'canceled', effectivePlan: 'free', overageAllowed: false });
    const free = await owner.chat();
    expect(free.status).toBe(402);
    expect(free.body.message).toMatch(/own OpenAI key/);
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token });
    expect((await owner.chat()).status).toBe(200);

    expect(await updatesOf(owner.user.id)).toEqual([
      { plan: 'starter', status: 'active', previousPlan: 'free', previousStatus: 'active' },
      { plan: 'starter', status: 'past_due', previousPlan: 'starter', previousStatus: 'active' },
      { plan: 'starter', status: 'canceled', previousPlan: 'starter', previousStatus: 'past_due' },
    ]);
    await waitFor(async () => (await stack.client.get('/api/notifications', { token: owner.token })).body.some((n: { title: string }) => /Starter/.test(n.title)));

    // The invoices, newest first, paged with Stripe's cursor.
    const invoices = await stack.client.get('/api/billing/invoices', { token: owner.token });
    expect(invoices.status).toBe(200);
    expect(invoices.body.items.map((i: { status: string }) => i.status)).toEqual(['open', 'paid']);
    expect(invoices.body.items[1]).toMatchObject({ currency: 'usd', amountDueCents: 2900, amountPaidCents: 2900, number: expect.stringMatching(/^FAKE-/) });
    const first = await stack.client.get('/api/billing/invoices?limit=1', { token: owner.token });
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: invoices.body.items[0].id });
    const second = await stack.client.get(`/api/billing/invoices?limit=1&startingAfter=${first.body.nextCursor}`, { token: owner.token });
    expect(second.body).toMatchObject({ items: [{ id: invoices.body.items[1].id }], hasMore: false, nextCursor: null });
  });

  it('never reports own-key tokens as overage', async () => {
    const owner = await subscribed('pro');
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token });
    expect((await owner.chat()).status).toBe(200);
    await db(`UPDATE usage_counters SET tokens_used = 600000 WHERE user_id = $1`, [owner.user.id]);
    expect((await owner.chat()).status).toBe(200);
    expect((await usageOf(owner.token)).usage).toMatchObject({ overageTokens: 0, ownKeyTokens: expect.any(Number) });
    const customer = stack.stripe.sessions.get([...stack.stripe.sessions.values()].find((s) => s.metadata.userId === owner.user.id)!.id)!.customer;
    await reportOverage();
    expect(stack.stripe.meterEvents.filter((e) => e.payload.stripe_customer_id === customer)).toEqual([]);
  });

  it('opens the customer portal for a user with a customer', async () => {
    const owner = await subscribed();
    const portal = await stack.client.post('/api/billing/portal', undefined, { token: owner.token });
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(new RegExp(`^${stack.stripe.url}/portal/bps_`));
  });

  it('starts a new billing period, with usage from zero, when Stripe renews the subscription', async () => {
    const owner = await subscribed();
    expect((await owner.chat()).status).toBe(200);
    const before = await usageOf(owner.token);
    expect(before.usage.tokensUsed).toBeGreaterThan(0);
    expect((await stack.deliver(stack.stripe.updateSubscription(owner.subscriptionId, { renew: true }))).body.result).toBe('applied');
    const after = await usageOf(owner.token);
    expect(Date.parse(after.period.start)).toBeGreaterThan(Date.parse(before.period.start) + 25 * 86_400_000);
    expect(after).toMatchObject({ plan: 'starter', status: 'active', usage: { tokensUsed: 0, messages: 0 } });
  });

  it('follows a plan change made in the portal (the subscription price) and resolves events out of order by their time', async () => {
    const owner = await subscribed();
    const created = owner.completed.created;
    const upgrade = stack.stripe.updateSubscription(owner.subscriptionId, { price: stack.stripe.prices.pro });
    upgrade.created = created + 100;
    const older = stack.stripe.updateSubscription(owner.subscriptionId, { status: 'past_due', price: stack.stripe.prices.starter });
    older.created = created + 50;
    expect((await stack.deliver(upgrade)).body.result).toBe('applied');
    expect((await stack.deliver(older)).body).toMatchObject({ received: true, result: 'stale' });
    expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'pro', status: 'active' });
    expect((await updatesOf(owner.user.id)).at(-1)).toEqual({ plan: 'pro', status: 'active', previousPlan: 'starter', previousStatus: 'active' });
  });

  it('completes a checkout from its hosted page and forwards the signed events, as the demo runner does', async () => {
    const owner = await anOwner();
    const checkout = await stack.client.post('/api/billing/subscribe', { plan: 'pro' }, { token: owner.token });
    const page = await fetch(checkout.body.url, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toMatch(/\/billing\?checkout=success$/);
    expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'pro', status: 'active' });
    const subscriptionId = stack.stripe.sessions.get(checkout.body.sessionId)!.subscription!;
    const failed = await fetch(`${stack.stripe.url}/__fake/subscriptions/${subscriptionId}/fail-payment`, { method: 'POST' });
    expect(await failed.json()).toMatchObject({ type: 'invoice.payment_failed', delivered: 200 });
    expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'pro', status: 'past_due' });
    expect((await fetch(checkout.body.url, { redirect: 'manual' })).status).toBe(404); // a session completes once
  });

  describe('bad input', () => {
    it('refuses a webhook with a wrong signature, a missing one or a stale timestamp (> 300 s), recording nothing', async () => {
      const owner = await anOwner();
      const checkout = await stack.client.post('/api/billing/subscribe', { plan: 'starter' }, { token: owner.token });
      const event = stack.stripe.completeCheckout(checkout.body.sessionId);
      const recorded = await eventsRecorded();
      const wrong = await stack.deliver(event, { secret: 'whsec_not_the_right_one' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/signature could not be verified/) });
      expect(wrong.text).not.toContain(stack.stripe.webhookSecret);
      const stale = await stack.deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
      expect(stale.status).toBe(400);
      expect(stale.body.message).toMatch(/tolerance/i);
      const unsigned = await stack.client.request('POST', '/api/billing/webhook', { rawBody: JSON.stringify(event), headers: { 'Content-Type': 'application/json' } });
      expect(unsigned.status).toBe(400);
      // A signature over other bytes: the body was changed on the way.
      const { headers } = stack.stripe.signed(event);
      const tampered = await stack.client.request('POST', '/api/billing/webhook', { rawBody: JSON.stringify({ ...event, type: 'customer.subscription.deleted' }), headers });
      expect(tampered.status).toBe(400);
      expect(await eventsRecorded()).toBe(recorded);
      expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'free' });
      // Within the tolerance it is applied.
      expect((await stack.deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 200 })).body.result).toBe('applied');
    });

    it('applies a replayed event id once', async () => {
      const owner = await anOwner();
      const checkout = await stack.client.post('/api/billing/subscribe', { plan: 'starter' }, { token: owner.token });
      const event = stack.stripe.completeCheckout(checkout.body.sessionId);
      expect((await stack.deliver(event)).body.result).toBe('applied');
      const again = await stack.deliver(event);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ received: true, result: 'duplicate' });
      expect(await updatesOf(owner.user.id)).toHaveLength(1);
    });

    it('answers 200 to an unknown event type and to an event for an unknown customer, changing nothing', async () => {
      const unknownType = await stack.deliver(stack.stripe.event('customer.created', { id: 'cus_x', object: 'customer' }));
      expect(unknownType.status).toBe(200);
      expect(unknownType.body).toMatchObject({ received: true, result: 'ignored' });
      const stranger = stack.stripe.event('customer.subscription.deleted', {
        id: 'sub_stranger',
        object: 'subscription',
        customer: 'cus_not_ours',
        status: 'canceled',
        items: { object: 'list', data: [] },
      });
      const outbox = await db(`SELECT count(*) AS n FROM event_outbox`);
      const res = await stack.deliver(stranger);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: true, result: 'ignored', reason: expect.stringMatching(/customer/) });
      expect(await db(`SELECT count(*) AS n FROM event_outbox`)).toEqual(outbox);
    });

    it('refuses a subscribe to an unknown plan, to Free, to the current plan, and a second paid subscription', async () => {
      const owner = await anOwner();
      for (const plan of ['platinum', 'free', 42, undefined]) {
        const res = await stack.client.post('/api/billing/subscribe', { plan }, { token: owner.token });
        expect(res.status).toBe(400);
        expect(res.body.details[0].path).toBe('plan');
      }
      expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'free', billing: { customer: false } }); // refused before any Stripe call
      const paying = await subscribed();
      const same = await stack.client.post('/api/billing/subscribe', { plan: 'starter' }, { token: paying.token });
      expect(same.status).toBe(409);
      expect(same.body.message).toMatch(/already on the Starter plan/);
      const other = await stack.client.post('/api/billing/subscribe', { plan: 'pro' }, { token: paying.token });
      expect(other.status).toBe(409);
      expect(other.body.message).toMatch(/customer portal/);
      expect((await stack.client.post('/api/billing/subscribe', { plan: 'pro' })).status).toBe(401);
    });

    it('refuses a portal request from a user with no customer yet, and answers an empty invoice list', async () => {
      const { access_token: token } = await registerUser(stack.client);
      const portal = await stack.client.post('/api/billing/portal', undefined, { token });
      expect(portal.status).toBe(409);
      expect(portal.body.message).toMatch(/subscribe to a plan first/);
      expect((await stack.client.get('/api/billing/invoices', { token })).body).toEqual({ items: [], hasMore: false, nextCursor: null });
      for (const query of ['limit=0', 'limit=101', 'limit=x', 'startingAfter=nope', 'startingAfter=in_%22%27']) {
        expect((await stack.client.get(`/api/billing/invoices?${query}`, { token })).status).toBe(400);
      }
    });
  });

  describe('paid marketplace items', () => {
    beforeAll(() => {
      licenses.items.set(ITEM_ID, { name: 'Translator Pro', priceCents: 1500, currency: 'usd', authorId: 'b7e2c1d0-1111-4222-8333-944455556666' });
    });

    it('sells a license through Checkout and issues it only when the checkout completes, once', async () => {
      const owner = await anOwner();
      const checkout = await stack.client.post('/api/billing/licenses/checkout', { marketplacePluginId: ITEM_ID.toUpperCase() }, { token: owner.token });
      expect(checkout.status).toBe(200);
      const session = stack.stripe.sessions.get(checkout.body.sessionId)!;
      expect(session).toMatchObject({ mode: 'payment', metadata: { purpose: 'license', itemId: ITEM_ID, userId: owner.user.id } });
      expect(session.line_items).toEqual([expect.objectContaining({ amount: 1500, currency: 'usd', name: 'Translator Pro' })]);
      expect(licenses.licensesOf(owner.user.id)).toEqual([]);

      const completed = stack.stripe.completeCheckout(checkout.body.sessionId);
      expect((await stack.deliver(completed)).body.result).toBe('applied');
      expect((await stack.deliver(completed)).body.result).toBe('duplicate');
      expect(licenses.licensesOf(owner.user.id)).toEqual([ITEM_ID]);
      expect(await subscriptionOf(owner.token)).toMatchObject({ plan: 'free' }); // a license is not a plan
    });

    it('issues no license for an unpaid checkout, and refuses unknown, missing and own items', async () => {
      const owner = await anOwner();
      const checkout = await stack.client.post('/api/billing/licenses/checkout', { marketplacePluginId: ITEM_ID }, { token: owner.token });
      expect((await stack.deliver(stack.stripe.completeCheckout(checkout.body.sessionId, { paid: false }))).body.result).toBe('ignored');
      expect(licenses.licensesOf(owner.user.id)).toEqual([]);
      expect((await stack.client.post('/api/billing/licenses/checkout', { marketplacePluginId: 'c0ffee00-0000-4000-8000-000000000000' }, { token: owner.token })).status).toBe(404);
      expect((await stack.client.post('/api/billing/licenses/checkout', {}, { token: owner.token })).status).toBe(400);
      licenses.items.set('d1d1d1d1-0000-4000-8000-000000000001', { name: 'Mine', priceCents: 500, currency: 'usd', authorId: owner.user.id });
      expect((await stack.client.post('/api/billing/licenses/checkout', { marketplacePluginId: 'd1d1d1d1-0000-4000-8000-000000000001' }, { token: owner.token })).status).toBe(409);
    });
  });
});

describe('core API: billing without STRIPE_SECRET_KEY', () => {
  it('answers 503 on the payment endpoints, and admins keep setting plans by hand', async () => {
    const stack = await startCoreApi();
    try {
      const user = await registerUser(stack.client);
      const token = user.access_token;
      for (const [method, path, body] of [
        ['POST', '/api/billing/subscribe', { plan: 'starter' }],
        ['POST', '/api/billing/portal', undefined],
        ['GET', '/api/billing/invoices', undefined],
        ['POST', '/api/billing/licenses/checkout', { marketplacePluginId: ITEM_ID }],
        ['POST', '/api/billing/webhook', { id: 'evt_1' }],
      ] as const) {
        const res = await stack.client.request(method, path, { token, body });
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(/^Payments are not set up on this platform: plans are set by the platform's administrator\.$/) });
      }
      expect((await stack.client.get('/api/billing/subscription', { token })).body).toMatchObject({ plan: 'free', billing: { customer: false } });
      await stack.setPlan(user.user.id, 'pro');
      expect((await stack.client.get('/api/billing/subscription', { token })).body).toMatchObject({ plan: 'pro', status: 'active' });
    } finally {
      await stack.close();
    }
  });
});
