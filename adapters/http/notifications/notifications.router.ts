import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CountUnreadNotificationsUseCase } from '../../../core/notifications/use-cases/count-unread-notifications.use-case';
import type { ListNotificationsUseCase } from '../../../core/notifications/use-cases/list-notifications.use-case';
import type { ReadAllNotificationsUseCase } from '../../../core/notifications/use-cases/read-all-notifications.use-case';
import type { ReadNotificationUseCase } from '../../../core/notifications/use-cases/read-notification.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** The caller's in-app notifications (SPEC 2.11, 6.5). */
export function notificationsRouter(d: {
  auth: Middleware;
  list: ListNotificationsUseCase;
  read: ReadNotificationUseCase;
  readAll: ReadAllNotificationsUseCase;
  unread: CountUnreadNotificationsUseCase;
}): Router {
  const r = new Router({ prefix: '/api/notifications' });
  r.use(d.auth);
  r.get('/', async (ctx) => respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx))));
  r.get('/unread-count', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await d.unread.execute(actorOf(ctx));
  });
  r.put('/read-all', async (ctx) => {
    ctx.body = await d.readAll.execute(actorOf(ctx));
  });
  r.put('/:id/read', async (ctx) => {
    ctx.body = await d.read.execute(ctx.params.id!, actorOf(ctx));
  });
  return r;
}
