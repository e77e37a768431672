import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { GetSubscriptionUseCase } from '../../../core/billing/use-cases/get-subscription.use-case';
import type { GetUsageUseCase } from '../../../core/billing/use-cases/get-usage.use-case';
import type { HandlePaymentWebhookUseCase } from '../../../core/billing/use-cases/handle-payment-webhook.use-case';
import type { LicenseCheckoutUseCase } from '../../../core/billing/use-cases/license-checkout.use-case';
import type { ListInvoicesUseCase } from '../../../core/billing/use-cases/list-invoices.use-case';
import type { ListPlansUseCase } from '../../../core/billing/use-cases/list-plans.use-case';
import type { OpenPortalUseCase } from '../../../core/billing/use-cases/open-portal.use-case';
import type { SubscribeUseCase } from '../../../core/billing/use-cases/subscribe.use-case';
import { actorOf } from '../shared/auth.middleware';
import { rawBodyOf } from '../shared/json-body.middleware';

export interface BillingRoutes {
  auth: Middleware;
  plans: ListPlansUseCase;
  usage: GetUsageUseCase;
  subscription: GetSubscriptionUseCase;
  subscribe: SubscribeUseCase;
  portal: OpenPortalUseCase;
  invoices: ListInvoicesUseCase;
  webhook: HandlePaymentWebhookUseCase;
  licenseCheckout: LicenseCheckoutUseCase;
}

/** Plans on offer (public), the caller's subscription, usage, payments, and the payment processor's webhook (SPEC 2.11, 4.12, 8). */
export function billingRouter(d: BillingRoutes): Router {
  const r = new Router({ prefix: '/api/billing' });
  r.get('/plans', async (ctx) => {
    ctx.body = d.plans.execute();
  });
  r.get('/usage', d.auth, async (ctx) => {
    ctx.body = await d.usage.execute(actorOf(ctx));
  });
  r.get('/subscription', d.auth, async (ctx) => {
    ctx.body = await d.subscription.execute(actorOf(ctx));
  });
  r.post('/subscribe', d.auth, async (ctx) => {
    ctx.body = await d.subscribe.execute(actorOf(ctx), ctx.request.body);
  });
  r.post('/portal', d.auth, async (ctx) => {
    ctx.body = await d.portal.execute(actorOf(ctx));
  });
  r.get('/invoices', d.auth, async (ctx) => {
    ctx.body = await d.invoices.execute(actorOf(ctx), { limit: ctx.query.limit, startingAfter: ctx.query.startingAfter });
  });
  r.post('/licenses/checkout', d.auth, async (ctx) => {
    ctx.body = await d.licenseCheckout.execute(actorOf(ctx), ctx.request.body);
  });
  // No session: the signature over the exact body is the authentication.
  r.post('/webhook', async (ctx) => {
    ctx.body = await d.webhook.execute(rawBodyOf(ctx), ctx.get(d.webhook.signatureHeader) || undefined);
  });
  return r;
}
