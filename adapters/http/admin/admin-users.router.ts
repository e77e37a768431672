import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ChangeUserRoleUseCase, ListUsersUseCase, SetUserDisabledUseCase } from '../../../core/admin/use-cases/admin-users.use-cases';
import { actorOf, requireRole } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** Admin: accounts (`GET /api/admin/users`, an array with X-Total-Count), their role and whether they are disabled. */
export function adminUsersRouter(d: { auth: Middleware; list: ListUsersUseCase; changeRole: ChangeUserRoleUseCase; setDisabled: SetUserDisabledUseCase }): Router {
  const r = new Router({ prefix: '/api/admin/users' });
  r.get('/', d.auth, requireRole('admin'), async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  r.put('/:id/role', d.auth, requireRole('admin'), async (ctx) => {
    ctx.body = await d.changeRole.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.put('/:id/disabled', d.auth, requireRole('admin'), async (ctx) => {
    ctx.body = await d.setDisabled.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  return r;
}
