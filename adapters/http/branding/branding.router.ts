import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { GetBrandingUseCase } from '../../../core/branding/use-cases/get-branding.use-case';
import type { UpdateBrandingUseCase } from '../../../core/branding/use-cases/update-branding.use-case';
import { actorOf } from '../shared/auth.middleware';

/** Branding per application (SPEC 2.11). */
export function brandingRouter(d: { auth: Middleware; get: GetBrandingUseCase; update: UpdateBrandingUseCase }): Router {
  const r = new Router({ prefix: '/api/branding' });
  r.use(d.auth);
  r.get('/:appId', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.put('/:appId', async (ctx) => {
    ctx.body = await d.update.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  return r;
}
