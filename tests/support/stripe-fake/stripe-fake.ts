import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small local stand-in for the Stripe API, reached by the real `stripe` SDK through its
 * `host`/`port`/`protocol` options (STRIPE_API_BASE). It keeps customers, Checkout Sessions, billing portal
 * sessions, subscriptions, invoices and billing meter events (what Stripe has in place of usage records)
 * in memory, speaks Stripe's form-encoded requests and JSON answers, replays answers to a repeated
 * `Idempotency-Key`, and refuses requests without the configured secret key.
 *
 * Stripe's side of a purchase (the customer paying on the hosted page, a renewal, a failed charge, a
 * cancellation) is driven by the test through the methods below, each of which changes the fake's state
 * and answers the webhook event Stripe would send, signed with `stripe.webhooks.generateTestHeaderString`
 * so the platform's real signature check runs.
 */
export interface StripeFake {
  /** What to set as STRIPE_API_BASE. */
  url: string;
  /** Where the hosted pages and control routes send their webhook events (see StripeFakeOptions); settable. */
  forwardTo: string | undefined;
  secretKey: string;
  webhookSecret: string;
  /** Price ids to set as STRIPE_PRICE_*; the env block below has them all. */
  prices: { starter: string; pro: string; enterprise: string; overageStarter: string; overagePro: string };
  env: Record<string, string>;
  customers: Map<string, FakeCustomer>;
  sessions: Map<string, FakeSession>;
  subscriptions: Map<string, FakeSubscription>;
  invoices: FakeInvoice[];
  meterEvents: FakeMeterEvent[];
  /** Every API request, oldest first. */
  requests: Array<{ method: string; path: string }>;
  /** The customer pays on the hosted Checkout page: the session completes (a subscription starts in subscription mode). */
  completeCheckout(sessionId: string, options?: { paid?: boolean }): FakeEvent;
  /** A subscription changes (a renewal moves its period on by a month; a price is a plan change). */
  updateSubscription(subscriptionId: string, change: { status?: string; price?: string; renew?: boolean }): FakeEvent;
  /** A renewal charge fails: an open invoice and `invoice.payment_failed`. */
  failPayment(subscriptionId: string): FakeEvent;
  /** The subscription ends: `customer.subscription.deleted`. */
  deleteSubscription(subscriptionId: string): FakeEvent;
  /** An event of any type, e.g. one the platform does not handle. */
  event(type: string, object: Record<string, unknown>, created?: number): FakeEvent;
  /** The body and `Stripe-Signature` header of an event as Stripe would deliver it. */
  signed(event: FakeEvent, options?: { timestamp?: number; secret?: string }): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

export interface FakeCustomer {
  id: string;
  object: 'customer';
  email: string | null;
  metadata: Record<string, string>;
  created: number;
}
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  customer: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  line_items: Array<{ price?: string; quantity?: number; amount?: number; currency?: string; name?: string }>;
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string;
  cancel_url: string;
  url: string;
  created: number;
}
export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  metadata: Record<string, string>;
  created: number;
  items: { object: 'list'; data: Array<{ id: string; object: 'subscription_item'; price: { id: string; object: 'price' }; current_period_start: number; current_period_end: number }> };
}
export interface FakeInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  number: string;
  status: string;
  currency: string;
  amount_due: number;
  amount_paid: number;
  created: number;
  period_start: number;
  period_end: number;
  hosted_invoice_url: string;
  invoice_pdf: string;
  parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Record<string, string> } } | null;
}
export interface FakeMeterEvent {
  object: 'billing.meter_event';
  event_name: string;
  identifier: string;
  payload: Record<string, string>;
  timestamp: number;
  created: number;
  livemode: false;
}
export interface FakeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Record<string, unknown> };
}

const MONTH = 30 * 86_400;

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface StripeFakeOptions {
  port?: number;
  /**
   * For demos: where to send the webhook events of what happens on the fake's hosted pages and control
   * routes (opening a Checkout URL completes its session), e.g. `http://localhost:3000/api/billing/webhook`.
   */
  forwardTo?: string;
  /** Fixed keys (demos); random by default. */
  secretKey?: string;
  webhookSecret?: string;
}

/** Starts the fake on a free port of 127.0.0.1 (or the given one). */
export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(8).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_fake_${randomBytes(16).toString('hex')}`;
  const prices = { starter: 'price_fake_starter', pro: 'price_fake_pro', enterprise: 'price_fake_enterprise', overageStarter: 'price_fake_overage_starter', overagePro: 'price_fake_overage_pro' };
  const PLAN_AMOUNTS: Record<string, number> = { [prices.starter]: 2900, [prices.pro]: 9900, [prices.enterprise]: 49900 };
  const signer = new Stripe('sk_test_signer_only');
  const customers = new Map<string, FakeCustomer>();
  const sessions = new Map<string, FakeSession>();
  const subscriptions = new Map<string, FakeSubscription>();
  const invoices: FakeInvoice[] = [];
  const meterEvents: FakeMeterEvent[] = [];
  const requests: StripeFake['requests'] = [];
  const replays = new Map<string, { status: number; body: unknown }>();
  let invoiceNumber = 0;
  let base = '';

  const addInvoice = (sub: FakeSubscription, status: 'paid' | 'open'): FakeInvoice => {
    const item = sub.items.data[0]!;
    const amount = PLAN_AMOUNTS[item.price.id] ?? 0;
    const invoice: FakeInvoice = {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      number: `FAKE-${String(++invoiceNumber).padStart(4, '0')}`,
      status,
      currency: 'usd',
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      created: nowSeconds() + invoiceNumber, // strictly increasing, so "newest first" is well defined
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      hosted_invoice_url: `${base}/invoices/hosted`,
      invoice_pdf: `${base}/invoices/pdf`,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    };
    invoices.push(invoice);
    return invoice;
  };

  const handle = (method: string, path: string, params: Params): { status: number; body: unknown } => {
    if (method === 'POST' && path === '/v1/customers') {
      const customer: FakeCustomer = { id: id('cus'), object: 'customer', email: str(params.email), metadata: record(params.metadata), created: nowSeconds() };
      customers.set(customer.id, customer);
      return ok(customer);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const customer = str(params.customer);
      if (!customer || !customers.has(customer)) return notFound('customer', customer);
      const mode = str(params.mode) ?? 'payment';
      const lineItems = list(params.line_items).map((li) => {
        const item = record(li);
        const priceData = li && typeof li === 'object' ? (li as Params).price_data : undefined;
        const data = priceData && typeof priceData === 'object' ? (priceData as Params) : undefined;
        const product = data && typeof data.product_data === 'object' ? (data.product_data as Params) : undefined;
        return {
          price: item.price,
          quantity: item.quantity ? Number(item.quantity) : undefined,
          amount: data ? Number(data.unit_amount) : undefined,
          currency: data ? str(data.currency) ?? undefined : undefined,
          name: product ? str(product.name) ?? undefined : undefined,
        };
      });
      if (lineItems.length === 0) return invalid('line_items', 'Missing required param: line_items.');
      for (const li of lineItems) if (li.price && !Object.values(prices).includes(li.price)) return notFound('price', li.price);
      const session: FakeSession = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode,
        customer,
        client_reference_id: str(params.client_reference_id),
        metadata: record(params.metadata),
        line_items: lineItems,
        payment_status: 'unpaid',
        status: 'open',
        subscription: null,
        success_url: str(params.success_url) ?? '',
        cancel_url: str(params.cancel_url) ?? '',
        url: '',
        created: nowSeconds(),
      };
      session.url = `${base}/checkout/${session.id}`;
      sessions.set(session.id, session);
      return ok(publicSession(session));
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = str(params.customer);
      if (!customer || !customers.has(customer)) return notFound('customer', customer);
      const session = { id: id('bps'), object: 'billing_portal.session', customer, return_url: str(params.return_url), url: '', created: nowSeconds(), livemode: false };
      session.url = `${base}/portal/${session.id}`;
      return ok(session);
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const customer = str(params.customer);
      const limit = Math.min(100, Math.max(1, Number(params.limit ?? 10) || 10));
      const mine = invoices.filter((i) => !customer || i.customer === customer).sort((a, b) => b.created - a.created);
      let from = 0;
      const after = str(params.starting_after);
      if (after) {
        const at = mine.findIndex((i) => i.id === after);
        if (at < 0) return notFound('invoice', after);
        from = at + 1;
      }
      const page = mine.slice(from, from + limit);
      return ok({ object: 'list', url: '/v1/invoices', data: page, has_more: from + limit < mine.length });
    }
    if (method === 'POST' && path === '/v1/billing/meter_events') {
      const payload = record(params.payload);
      const identifier = str(params.identifier) ?? id('mev');
      if (!str(params.event_name)) return invalid('event_name', 'Missing required param: event_name.');
      if (!payload.stripe_customer_id || !customers.has(payload.stripe_customer_id)) return invalid('payload', 'No customer for payload[stripe_customer_id].');
      if (!/^\d+(\.\d+)?$/.test(payload.value ?? '')) return invalid('payload', 'payload[value] must be a number.');
      if (meterEvents.some((e) => e.identifier === identifier)) return invalid('identifier', `An event with identifier ${identifier} already exists.`);
      const event: FakeMeterEvent = { object: 'billing.meter_event', event_name: str(params.event_name)!, identifier, payload, timestamp: Number(params.timestamp ?? nowSeconds()), created: nowSeconds(), livemode: false };
      meterEvents.push(event);
      return ok(event);
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } } };
  };

  const server = createServer((req, res) => void serve(req, res));
  async function serve(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
      res.end(JSON.stringify(body));
    };
    // Stripe's side, for demos: the hosted pages and a few control routes, without the API key.
    if (!target.pathname.startsWith('/v1/')) {
      const outcome = await hosted(method, target.pathname).catch((error: Error) => ({ status: 502, body: { error: error.message } }));
      if ('redirect' in outcome) {
        res.writeHead(303, { Location: outcome.redirect });
        return res.end();
      }
      return answer(outcome.status, outcome.body);
    }
    requests.push({ method, path: target.pathname });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const form = method === 'GET' ? target.searchParams : new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const replayKey = typeof key === 'string' ? `${target.pathname}|${key}` : undefined;
    if (replayKey && replays.has(replayKey)) {
      const replay = replays.get(replayKey)!;
      res.setHeader('Idempotent-Replayed', 'true');
      return answer(replay.status, replay.body);
    }
    const result = handle(method, target.pathname, parseForm(form));
    if (replayKey && result.status < 500) replays.set(replayKey, result);
    answer(result.status, result.body);
  }
  /** The hosted Checkout page completes its session; control routes renew, fail or delete a subscription. */
  async function hosted(method: string, path: string): Promise<{ status: number; body: unknown } | { redirect: string }> {
    const checkout = /^\/checkout\/(cs_test_[0-9a-f]+)$/.exec(path);
    if (method === 'GET' && checkout) {
      const session = sessions.get(checkout[1]!);
      if (!session || session.status !== 'open') return { status: 404, body: { error: 'No open Checkout Session here' } };
      await forward(fake.completeCheckout(session.id));
      return { redirect: session.success_url || '/' };
    }
    if (method === 'GET' && /^\/portal\/bps_[0-9a-f]+$/.test(path)) return { status: 200, body: { portal: 'The Stripe fake has no portal pages; use its control routes' } };
    const control = /^\/__fake\/subscriptions\/(sub_[0-9a-f]+)\/(renew|fail-payment|delete)$/.exec(path);
    if (method === 'POST' && control) {
      if (!subscriptions.has(control[1]!)) return { status: 404, body: { error: 'No such subscription' } };
      const action = control[2];
      const e = action === 'renew' ? fake.updateSubscription(control[1]!, { renew: true }) : action === 'delete' ? fake.deleteSubscription(control[1]!) : fake.failPayment(control[1]!);
      return { status: 200, body: { event: e.id, type: e.type, delivered: await forward(e) } };
    }
    if (method === 'GET' && path === '/__fake/subscriptions') return { status: 200, body: [...subscriptions.values()] };
    return { status: 404, body: { error: 'Not a page of the Stripe fake' } };
  }

  /** Sends an event to `forwardTo`, signed; answers the status the platform gave (null without `forwardTo`). */
  async function forward(e: FakeEvent): Promise<number | null> {
    if (!fake.forwardTo) return null;
    const { body, headers } = fake.signed(e);
    return (await fetch(fake.forwardTo, { method: 'POST', headers, body })).status;
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (type: string, object: Record<string, unknown>, created = nowSeconds()): FakeEvent => ({
    id: id('evt'),
    object: 'event',
    type,
    created,
    api_version: '2026-10-28.endive',
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: JSON.parse(JSON.stringify(object)) as Record<string, unknown> },
  });

  const subscriptionOf = (subscriptionId: string): FakeSubscription => {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`stripe fake: no subscription ${subscriptionId}`);
    return sub;
  };

  const fake: StripeFake = {
    url: base,
    forwardTo: options.forwardTo,
    secretKey,
    webhookSecret,
    prices,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: base,
      STRIPE_PRICE_STARTER: prices.starter,
      STRIPE_PRICE_PRO: prices.pro,
      STRIPE_PRICE_ENTERPRISE: prices.enterprise,
      STRIPE_PRICE_OVERAGE_STARTER: prices.overageStarter,
      STRIPE_PRICE_OVERAGE_PRO: prices.overagePro,
    },
    customers,
    sessions,
    subscriptions,
    invoices,
    meterEvents,
    requests,
    completeCheckout(sessionId, options = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`stripe fake: no session ${sessionId}`);
      const paid = options.paid ?? true;
      session.status = 'complete';
      session.payment_status = paid ? 'paid' : 'unpaid';
      if (session.mode === 'subscription') {
        const start = nowSeconds();
        const sub: FakeSubscription = {
          id: id('sub'),
          object: 'subscription',
          customer: session.customer!,
          status: paid ? 'active' : 'incomplete',
          metadata: { ...session.metadata },
          created: start,
          items: {
            object: 'list',
            data: session.line_items
              .filter((li) => li.price)
              .map((li) => ({ id: id('si'), object: 'subscription_item' as const, price: { id: li.price!, object: 'price' as const }, current_period_start: start, current_period_end: start + MONTH })),
          },
        };
        subscriptions.set(sub.id, sub);
        session.subscription = sub.id;
        addInvoice(sub, paid ? 'paid' : 'open');
      }
      return event('checkout.session.completed', publicSession(session));
    },
    updateSubscription(subscriptionId, change) {
      const sub = subscriptionOf(subscriptionId);
      if (change.status) sub.status = change.status;
      if (change.price) sub.items.data[0]!.price = { id: change.price, object: 'price' };
      if (change.renew) {
        for (const item of sub.items.data) {
          item.current_period_start = item.current_period_end;
          item.current_period_end = item.current_period_start + MONTH;
        }
        addInvoice(sub, 'paid');
      }
      return event('customer.subscription.updated', sub as unknown as Record<string, unknown>);
    },
    failPayment(subscriptionId) {
      const sub = subscriptionOf(subscriptionId);
      const invoice = addInvoice(sub, 'open');
      return event('invoice.payment_failed', invoice as unknown as Record<string, unknown>);
    },
    deleteSubscription(subscriptionId) {
      const sub = subscriptionOf(subscriptionId);
      sub.status = 'canceled';
      return event('customer.subscription.deleted', sub as unknown as Record<string, unknown>);
    },
    event,
    signed(e, opts = {}) {
      const body = JSON.stringify(e, null, 2);
      const header = signer.webhooks.generateTestHeaderString({ payload: body, secret: opts.secret ?? webhookSecret, timestamp: opts.timestamp ?? nowSeconds() });
      return { body, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': header } };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fake;
}

function publicSession(s: FakeSession): Record<string, unknown> {
  const { line_items: _items, ...rest } = s;
  return { ...rest };
}

type Params = { [key: string]: string | Params | Params[] | string[] | undefined };

/** Stripe's form encoding (`a[b][0][c]=x`) as nested objects; numeric keys become list entries. */
function parseForm(form: URLSearchParams): Params {
  const root: Params = {};
  for (const [fullKey, value] of form) {
    const parts = fullKey.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const record = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
const list = (v: unknown): Params[] =>
  v && typeof v === 'object'
    ? Object.keys(v)
        .filter((k) => /^\d+$/.test(k))
        .sort((a, b) => Number(a) - Number(b))
        .map((k) => (v as Record<string, Params>)[k]!)
    : [];
const ok = (body: unknown) => ({ status: 200, body });
const invalid = (param: string, message: string) => ({ status: 400, body: { error: { type: 'invalid_request_error', param, message } } });
const notFound = (what: string, value: string | null) => ({
  status: 404,
  body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${value ?? ''}'` } },
});
