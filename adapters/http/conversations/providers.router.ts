import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ListProvidersUseCase } from '../../../core/conversations/use-cases/list-providers.use-case';
import { actorOf } from '../shared/auth.middleware';

/** `GET /api/providers`: the model catalogue a chat picks from. */
export function providersRouter(d: { auth: Middleware; list: ListProvidersUseCase }): Router {
  const r = new Router();
  r.get('/api/providers', d.auth, async (ctx) => {
    ctx.body = await d.list.execute(actorOf(ctx));
  });
  return r;
}
