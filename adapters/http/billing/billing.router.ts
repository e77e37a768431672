import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { GetUsageUseCase } from '../../../core/billing/use-cases/get-usage.use-case';
import type { ListPlansUseCase } from '../../../core/billing/use-cases/list-plans.use-case';
import { actorOf } from '../shared/auth.middleware';

/** Plans on offer (public) and the caller's subscription and usage (SPEC 2.11, 8). */
export function billingRouter(d: { auth: Middleware; plans: ListPlansUseCase; usage: GetUsageUseCase }): Router {
  const r = new Router({ prefix: '/api/billing' });
  r.get('/plans', async (ctx) => {
    ctx.body = d.plans.execute();
  });
  r.get('/usage', d.auth, async (ctx) => {
    ctx.body = await d.usage.execute(actorOf(ctx));
  });
  return r;
}
