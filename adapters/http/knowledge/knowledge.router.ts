import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { DeleteDocumentUseCase } from '../../../core/knowledge/use-cases/delete-document.use-case';
import type { GetDocumentUseCase } from '../../../core/knowledge/use-cases/get-document.use-case';
import type { ListDocumentsUseCase } from '../../../core/knowledge/use-cases/list-documents.use-case';
import type { ReindexDocumentUseCase } from '../../../core/knowledge/use-cases/reindex-document.use-case';
import type { SearchKnowledgeUseCase } from '../../../core/knowledge/use-cases/search-knowledge.use-case';
import type { UploadDocumentUseCase } from '../../../core/knowledge/use-cases/upload-document.use-case';
import type { DocumentChunksUseCase, PreviewChunksUseCase } from '../../../core/knowledge/use-cases/document-chunks.use-case';
import type { DocumentVersionsUseCase } from '../../../core/knowledge/use-cases/document-versions.use-case';
import type { KnowledgeBasesUseCases } from '../../../core/knowledge/use-cases/knowledge-bases.use-cases';
import type { RetrievalSettingsUseCase } from '../../../core/knowledge/use-cases/retrieval-settings.use-case';
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
  versions: DocumentVersionsUseCase;
  chunks: DocumentChunksUseCase;
  preview: PreviewChunksUseCase;
  settings: RetrievalSettingsUseCase;
  bases: KnowledgeBasesUseCases;
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
  // How a file would be chunked with given settings; nothing is stored.
  r.post('/preview', multipartForm({ maxFileBytes: MAX_UPLOAD_BYTES }), async (ctx) => {
    ctx.body = await d.preview.execute(formOf(ctx));
  });
  // Every ready document of an application, re-indexed in the background (searchable throughout).
  r.post('/reindex', async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.reindex.reindexApplication(ctx.request.body as Record<string, unknown> | undefined, actorOf(ctx));
  });
  // Knowledge bases of their own, owned by a user or a team and used by several applications. Before `/:id`.
  r.get('/bases', async (ctx) => {
    respondWithPage(ctx, await d.bases.list(ctx.query, actorOf(ctx)));
  });
  r.post('/bases', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.bases.create(ctx.request.body, actorOf(ctx));
  });
  r.get('/bases/:id', async (ctx) => {
    ctx.body = await d.bases.get(ctx.params.id!, actorOf(ctx));
  });
  r.patch('/bases/:id', async (ctx) => {
    ctx.body = await d.bases.update(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/bases/:id', async (ctx) => {
    await d.bases.remove(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  r.get('/bases/:id/documents', async (ctx) => {
    respondWithPage(ctx, await d.bases.listDocuments(ctx.params.id!, ctx.query, actorOf(ctx)));
  });
  r.post('/bases/:id/documents', multipartForm({ maxFileBytes: MAX_UPLOAD_BYTES }), async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.upload.intoBase(ctx.params.id!, formOf(ctx), actorOf(ctx));
  });
  r.post('/bases/:id/reindex', async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.reindex.reindexBase(ctx.params.id!, ctx.request.body as Record<string, unknown> | undefined, actorOf(ctx));
  });
  r.get('/settings/:applicationId', async (ctx) => {
    ctx.body = await d.settings.get(ctx.params.applicationId!, actorOf(ctx));
  });
  r.put('/settings/:applicationId', async (ctx) => {
    ctx.body = await d.settings.update(ctx.params.applicationId!, ctx.request.body, actorOf(ctx));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.post('/:id/reindex', async (ctx) => {
    // Accepted: the new chunks are built in the background while the current ones stay searchable.
    ctx.status = 202;
    ctx.body = await d.reindex.execute(ctx.params.id!, ctx.request.body as Record<string, unknown> | undefined, actorOf(ctx));
  });
  // A new file for the document: its next version, live once processed (202).
  r.put('/:id', multipartForm({ maxFileBytes: MAX_UPLOAD_BYTES }), async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.versions.replaceById(ctx.params.id!, formOf(ctx), actorOf(ctx));
  });
  r.get('/:id/versions', async (ctx) => {
    ctx.body = await d.versions.list(ctx.params.id!, actorOf(ctx));
  });
  r.post('/:id/versions/:version/restore', async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.versions.restore(ctx.params.id!, ctx.params.version!, actorOf(ctx));
  });
  r.get('/:id/chunks', async (ctx) => {
    respondWithPage(ctx, await d.chunks.list(ctx.params.id!, ctx.query, actorOf(ctx)));
  });
  r.post('/:id/chunks', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.chunks.add(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.patch('/:id/chunks/:index', async (ctx) => {
    ctx.body = await d.chunks.edit(ctx.params.id!, ctx.params.index!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.remove.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
