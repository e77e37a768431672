import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { StripePaymentGateway } from '../../../adapters/payments/stripe.payment-gateway';
import { ConfigError, loadConfig } from '../../../apps/shared/config';
import { subscriptionStatusOf } from '../../../core/billing/domain/payments';
import type { DomainEvent } from '../../../core/events/domain/domain-event';
import type { NewNotification } from '../../../core/notifications/domain/notification';
import { NotificationsFromEvents } from '../../../core/notifications/use-cases/notifications-from-events.subscriber';
import type { Notify } from '../../../core/notifications/use-cases/notify';

const dir = mkdtempSync(join(tmpdir(), 'stripe-config-'));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });
const refusal = (env: Record<string, string>): string => {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

describe('Stripe configuration', () => {
  const base = { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_PRICE_STARTER: 'price_starter1' };

  it('is off without STRIPE_SECRET_KEY, and reads prices, the meter and the API base with it', () => {
    expect(load({}).stripe).toBeUndefined();
    expect(load({ ...base, STRIPE_PRICE_OVERAGE_STARTER: 'price_ovg1', STRIPE_API_BASE: 'http://127.0.0.1:12111/' }).stripe).toEqual({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_abc',
      prices: { starter: 'price_starter1', pro: undefined, enterprise: undefined },
      overagePrices: { starter: 'price_ovg1', pro: undefined },
      meterEventName: 'platform_overage_tokens',
      apiBase: { protocol: 'http', host: '127.0.0.1', port: 12111 },
    });
  });

  it('refuses a key without webhook secret or prices, a price that is not a price id, a bad meter name or API base', () => {
    expect(refusal({ STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PRICE_STARTER: 'price_1' })).toMatch(/STRIPE_WEBHOOK_SECRET is required/);
    expect(refusal({ STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toMatch(/no plan has a price/);
    expect(refusal({ ...base, STRIPE_PRICE_PRO: 'prod_123' })).toMatch(/STRIPE_PRICE_PRO must be a Stripe price id/);
    expect(refusal({ ...base, STRIPE_METER_EVENT: 'has spaces' })).toMatch(/STRIPE_METER_EVENT/);
    expect(refusal({ ...base, STRIPE_API_BASE: 'ftp://x' })).toMatch(/STRIPE_API_BASE/);
  });
});

describe("Stripe's subscription statuses", () => {
  it('map to the platform statuses: unpaid is past due, paused and expired are canceled', () => {
    expect(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'canceled', 'paused', 'something_new'].map(subscriptionStatusOf)).toEqual([
      'active',
      'trialing',
      'past_due',
      'past_due',
      'incomplete',
      'canceled',
      'canceled',
      'canceled',
      'canceled',
    ]);
  });
});

describe('the Stripe gateway reading webhooks', () => {
  const secret = 'whsec_unit_test_secret';
  const gateway = new StripePaymentGateway({
    secretKey: 'sk_test_unit',
    webhookSecret: secret,
    prices: { starter: 'price_s', pro: 'price_p' },
    overagePrices: {},
    meterEventName: 'platform_overage_tokens',
    returnUrl: 'http://localhost:3000/billing',
  });
  const signer = new Stripe('sk_test_signer');
  const deliver = (event: Record<string, unknown>, timestamp = Math.floor(Date.now() / 1000)) => {
    const body = JSON.stringify(event);
    return gateway.parseWebhook(Buffer.from(body), signer.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }));
  };

  it("reads a subscription's plan from its price and its period from its items", () => {
    const event = deliver({
      id: 'evt_1',
      object: 'event',
      type: 'customer.subscription.updated',
      created: 1_764_400_000,
      data: { object: { id: 'sub_1', object: 'subscription', customer: 'cus_1', status: 'unpaid', items: { data: [{ price: { id: 'price_p' }, current_period_start: 1_764_000_000 }] } } },
    });
    expect(event).toEqual({
      kind: 'subscription.changed',
      id: 'evt_1',
      type: 'customer.subscription.updated',
      created: new Date(1_764_400_000_000),
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      deleted: false,
      status: 'unpaid',
      plan: 'pro',
      currentPeriodStart: new Date(1_764_000_000_000),
    });
  });

  it("reads a failed invoice's subscription, and passes other types as ignored", () => {
    const failed = deliver({
      id: 'evt_2',
      object: 'event',
      type: 'invoice.payment_failed',
      created: 1,
      data: { object: { id: 'in_1', object: 'invoice', customer: 'cus_1', parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } } } },
    });
    expect(failed).toMatchObject({ kind: 'payment.failed', customerId: 'cus_1', subscriptionId: 'sub_1' });
    expect(deliver({ id: 'evt_3', object: 'event', type: 'charge.refunded', created: 1, data: { object: {} } })).toMatchObject({ kind: 'ignored', type: 'charge.refunded' });
  });

  it('refuses a missing signature, another secret and a timestamp past 300 s, without echoing the secret', () => {
    const body = JSON.stringify({ id: 'evt_4', object: 'event', type: 'charge.refunded', created: 1, data: { object: {} } });
    expect(() => gateway.parseWebhook(Buffer.from(body), undefined)).toThrow(/Stripe-Signature header is missing/);
    const other = signer.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other' });
    expect(() => gateway.parseWebhook(Buffer.from(body), other)).toThrow(/could not be verified/);
    const old = signer.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: Math.floor(Date.now() / 1000) - 301 });
    try {
      gateway.parseWebhook(Buffer.from(body), old);
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as Error).message).toMatch(/tolerance/i);
      expect((error as Error).message).not.toContain(secret);
    }
  });
});

describe('billing notifications', () => {
  const sent: NewNotification[] = [];
  const subscriber = new NotificationsFromEvents({ send: async (n: NewNotification) => void sent.push(n) } as unknown as Notify);
  const event = (data: Record<string, unknown>): DomainEvent => ({ id: 'evt_x', type: 'subscription.updated', ownerId: 'u1', applicationId: null, timestamp: '', data });

  it('tell of a new plan and of a subscription that ended, not of a renewal', async () => {
    sent.splice(0);
    await subscriber.handle(event({ plan: 'starter', status: 'active', previousPlan: 'free', previousStatus: 'active' }));
    await subscriber.handle(event({ plan: 'starter', status: 'canceled', previousPlan: 'starter', previousStatus: 'past_due' }));
    await subscriber.handle(event({ plan: 'starter', status: 'active', previousPlan: 'starter', previousStatus: 'active' }));
    expect(sent.map((n) => [n.type, n.category, n.title])).toEqual([
      ['success', 'billing', 'Your plan is now Starter'],
      ['info', 'billing', 'Your Starter subscription ended'],
    ]);
  });
});
