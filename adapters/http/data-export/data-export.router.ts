import Router from '@koa/router';
import type { Middleware } from 'koa';
import type {
  DownloadExportUseCase,
  GetExportUseCase,
  ImportDataUseCase,
  ListExportsUseCase,
  RequestExportUseCase,
} from '../../../core/data-export/use-cases/data-export.use-cases';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';
import { attachmentDisposition } from '../uploads/content-disposition';

/** Data export (a background job, then a download for its owner) and bulk import. */
export function dataExportRouter(d: {
  auth: Middleware;
  request: RequestExportUseCase;
  list: ListExportsUseCase;
  get: GetExportUseCase;
  download: DownloadExportUseCase;
  importData: ImportDataUseCase;
}): Router {
  const r = new Router();
  r.post('/api/data-export', d.auth, async (ctx) => {
    ctx.body = await d.request.execute(ctx.request.body, actorOf(ctx));
    ctx.status = 202;
  });
  r.get('/api/data-export', d.auth, async (ctx) => respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx))));
  r.get('/api/data-export/:id', d.auth, async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.get('/api/data-export/:id/download', d.auth, async (ctx) => {
    const file = await d.download.execute(ctx.params.id!, actorOf(ctx));
    ctx.type = file.contentType;
    ctx.set('Content-Disposition', attachmentDisposition(file.downloadName));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'private, no-store');
    ctx.length = file.byteSize;
    ctx.body = file.stream;
  });
  r.post('/api/data-import', d.auth, async (ctx) => {
    ctx.body = await d.importData.execute(ctx.request.body, actorOf(ctx));
  });
  return r;
}
