import Router from '@koa/router';
import type { Middleware } from 'koa';
import { MAX_UPLOAD_BYTES } from '../../../core/uploads/domain/file-type';
import type { CreateUploadUseCase } from '../../../core/uploads/use-cases/create-upload.use-case';
import type { DeleteUploadUseCase } from '../../../core/uploads/use-cases/delete-upload.use-case';
import type { GetUploadUseCase } from '../../../core/uploads/use-cases/get-upload.use-case';
import type { ListUploadsUseCase } from '../../../core/uploads/use-cases/list-uploads.use-case';
import type { ReadUploadContentUseCase } from '../../../core/uploads/use-cases/read-upload-content.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';
import { attachmentDisposition } from './content-disposition';
import { formOf, multipartForm } from './multipart';

/** Files of the caller (SPEC 4.12, 8): multipart upload, metadata, download as an attachment, delete. */
export function uploadsRouter(d: {
  auth: Middleware;
  create: CreateUploadUseCase;
  list: ListUploadsUseCase;
  get: GetUploadUseCase;
  content: ReadUploadContentUseCase;
  remove: DeleteUploadUseCase;
}): Router {
  const r = new Router({ prefix: '/api/uploads' });
  r.use(d.auth);
  r.post('/', multipartForm({ maxFileBytes: MAX_UPLOAD_BYTES }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(formOf(ctx).file, actorOf(ctx));
  });
  r.get('/', async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.get('/:id/content', async (ctx) => {
    const { upload, content } = await d.content.execute(ctx.params.id!, actorOf(ctx));
    ctx.type = upload.mimeType.startsWith('text/') || upload.mimeType === 'application/json' ? `${upload.mimeType}; charset=utf-8` : upload.mimeType;
    ctx.set('Content-Disposition', attachmentDisposition(upload.fileName));
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Opened directly, the file still runs nothing and loads nothing.
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'private, no-store');
    ctx.length = upload.sizeBytes;
    ctx.body = content;
  });
  r.delete('/:id', async (ctx) => {
    await d.remove.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
