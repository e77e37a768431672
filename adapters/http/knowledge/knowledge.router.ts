import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { DeleteDocumentUseCase } from '../../../core/knowledge/use-cases/delete-document.use-case';
import type { GetDocumentUseCase } from '../../../core/knowledge/use-cases/get-document.use-case';
import type { ListDocumentsUseCase } from '../../../core/knowledge/use-cases/list-documents.use-case';
import type { ReindexDocumentUseCase } from '../../../core/knowledge/use-cases/reindex-document.use-case';
import type { SearchKnowledgeUseCase } from '../../../core/knowledge/use-cases/search-knowledge.use-case';
import type { UploadDocumentUseCase } from '../../../core/knowledge/use-cases/upload-document.use-case';
import { MAX_UPLOAD_BYTES } from '../../../core/uploads/domain/file-type';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';
import { formOf, multipartForm } from '../uploads/multipart';

/** Knowledge base documents of the caller's applications (SPEC 2.11, 3, 4.12). */
export function knowledgeRouter(d: {
  auth: Middleware;
  upload: UploadDocumentUseCase;
  list: ListDocumentsUseCase;
  get: GetDocumentUseCase;
  remove: DeleteDocumentUseCase;
  search: SearchKnowledgeUseCase;
  reindex: ReindexDocumentUseCase;
}): Router {
  const r = new Router({ prefix: '/api/knowledge' });
  r.use(d.auth);
  r.post('/', multipartForm({ maxFileBytes: MAX_UPLOAD_BYTES }), async (ctx) => {
    // Accepted, not done: processing continues in the background (poll GET /api/knowledge/:id).
    ctx.status = 202;
    ctx.body = await d.upload.execute(formOf(ctx), actorOf(ctx));
  });
  r.get('/', async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  // Before `/:id`, which would otherwise take "search" for an id.
  r.get('/search', async (ctx) => {
    ctx.body = await d.search.execute(ctx.query, actorOf(ctx));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.post('/:id/reindex', async (ctx) => {
    // Accepted: the new chunks are built in the background while the current ones stay searchable.
    ctx.status = 202;
    ctx.body = await d.reindex.execute(ctx.params.id!, ctx.request.body as Record<string, unknown> | undefined, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.remove.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
