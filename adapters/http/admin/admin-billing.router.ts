import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ChangePlanUseCase } from '../../../core/billing/use-cases/change-plan.use-case';
import { actorOf, requireRole } from '../shared/auth.middleware';

/** Admin: a user's plan, until a payment processor sets it (`PUT /api/admin/users/:id/plan`). */
export function adminBillingRouter(d: { auth: Middleware; changePlan: ChangePlanUseCase }): Router {
  const r = new Router({ prefix: '/api/admin/users' });
  r.put('/:id/plan', d.auth, requireRole('admin'), async (ctx) => {
    ctx.body = await d.changePlan.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  return r;
}
