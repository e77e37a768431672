import Router from '@koa/router';
import type { Middleware } from 'koa';
import type {
  AnnotationSettingsUseCase,
  CreateAnnotationUseCase,
  DeleteAnnotationUseCase,
  ExportAnnotationsUseCase,
  ListAnnotationsUseCase,
  UpdateAnnotationUseCase,
} from '../../../core/logs/use-cases/annotations.use-cases';
import type { GetLogConversationUseCase, ListLogsUseCase } from '../../../core/logs/use-cases/logs.use-cases';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** An application's logs and annotations (docs/logs.md). */
export function logsRouter(d: {
  auth: Middleware;
  list: ListLogsUseCase;
  get: GetLogConversationUseCase;
  listAnnotations: ListAnnotationsUseCase;
  createAnnotation: CreateAnnotationUseCase;
  updateAnnotation: UpdateAnnotationUseCase;
  deleteAnnotation: DeleteAnnotationUseCase;
  exportAnnotations: ExportAnnotationsUseCase;
  settings: AnnotationSettingsUseCase;
}): Router {
  const r = new Router({ prefix: '/api/applications/:appId' });
  r.use(d.auth);
  r.get('/logs', async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.params.appId!, ctx.query, actorOf(ctx)));
  });
  r.get('/logs/:conversationId', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.appId!, ctx.params.conversationId!, actorOf(ctx));
  });
  r.get('/annotations', async (ctx) => {
    respondWithPage(ctx, await d.listAnnotations.execute(ctx.params.appId!, ctx.query, actorOf(ctx)));
  });
  r.post('/annotations', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.createAnnotation.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.get('/annotations/export', async (ctx) => {
    const file = await d.exportAnnotations.execute(ctx.params.appId!, ctx.query, actorOf(ctx));
    ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
    ctx.type = file.contentType;
    ctx.body = file.body;
  });
  r.get('/annotations/settings', async (ctx) => {
    ctx.body = await d.settings.get(ctx.params.appId!, actorOf(ctx));
  });
  r.put('/annotations/settings', async (ctx) => {
    ctx.body = await d.settings.save(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.put('/annotations/:id', async (ctx) => {
    ctx.body = await d.updateAnnotation.execute(ctx.params.appId!, ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/annotations/:id', async (ctx) => {
    await d.deleteAnnotation.execute(ctx.params.appId!, ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
