import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreateApplicationUseCase } from '../../../core/applications/use-cases/create-application.use-case';
import type { CustomizeThemeUseCase } from '../../../core/applications/use-cases/customize-theme.use-case';
import type { DeleteApplicationUseCase } from '../../../core/applications/use-cases/delete-application.use-case';
import type { GetApplicationUseCase } from '../../../core/applications/use-cases/get-application.use-case';
import type { ListApplicationsUseCase } from '../../../core/applications/use-cases/list-applications.use-case';
import type { TransferApplicationUseCase } from '../../../core/applications/use-cases/transfer-application.use-case';
import type { SelectThemeUseCase } from '../../../core/applications/use-cases/select-theme.use-case';
import type { UpdateApplicationUseCase } from '../../../core/applications/use-cases/update-application.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

export function applicationsRouter(d: {
  auth: Middleware;
  create: CreateApplicationUseCase;
  list: ListApplicationsUseCase;
  get: GetApplicationUseCase;
  update: UpdateApplicationUseCase;
  remove: DeleteApplicationUseCase;
  selectTheme: SelectThemeUseCase;
  customizeTheme: CustomizeThemeUseCase;
  /** Present when the app has the teams area. */
  transfer?: TransferApplicationUseCase;
}): Router {
  const r = new Router({ prefix: '/api/applications' });
  r.use(d.auth);
  r.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
  });
  r.get('/', async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.put('/:id', async (ctx) => {
    ctx.body = await d.update.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.remove.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/:id/theme', async (ctx) => {
    ctx.body = await d.selectTheme.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.put('/:id/theme/customize', async (ctx) => {
    ctx.body = await d.customizeTheme.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  const transfer = d.transfer;
  if (transfer) {
    r.post('/:id/transfer', async (ctx) => {
      ctx.body = await transfer.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
    });
  }
  return r;
}
