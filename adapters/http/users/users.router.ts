import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { DeleteAccountUseCase } from '../../../core/users/use-cases/delete-account.use-case';
import type { GetCurrentUserUseCase } from '../../../core/users/use-cases/get-current-user.use-case';
import type { UpdateProfileUseCase } from '../../../core/users/use-cases/update-profile.use-case';
import { actorOf } from '../shared/auth.middleware';

export function usersRouter(d: {
  auth: Middleware;
  me: GetCurrentUserUseCase;
  update: UpdateProfileUseCase;
  remove: DeleteAccountUseCase;
}): Router {
  const r = new Router({ prefix: '/api/users' });
  r.use(d.auth);
  r.get('/me', async (ctx) => {
    ctx.body = await d.me.execute(actorOf(ctx));
  });
  r.put('/me', async (ctx) => {
    ctx.body = await d.update.execute(ctx.request.body, actorOf(ctx));
  });
  r.delete('/me', async (ctx) => {
    await d.remove.execute(ctx.request.body, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
