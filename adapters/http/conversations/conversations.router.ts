import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ArchiveConversationUseCase } from '../../../core/conversations/use-cases/archive-conversation.use-case';
import type { CreateConversationUseCase } from '../../../core/conversations/use-cases/create-conversation.use-case';
import type { GetConversationUseCase } from '../../../core/conversations/use-cases/get-conversation.use-case';
import type { ListConversationsUseCase } from '../../../core/conversations/use-cases/list-conversations.use-case';
import type { RenameConversationUseCase } from '../../../core/conversations/use-cases/rename-conversation.use-case';
import type { SendMessageUseCase } from '../../../core/conversations/use-cases/send-message.use-case';
import type { StreamMessageUseCase } from '../../../core/conversations/use-cases/stream-message.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';
import { abortOnDisconnect, writeSse } from '../shared/sse';

/** Conversations of the caller's applications (SPEC 4.3). */
export function conversationsRouter(d: {
  auth: Middleware;
  create: CreateConversationUseCase;
  list: ListConversationsUseCase;
  get: GetConversationUseCase;
  archive: ArchiveConversationUseCase;
  rename: RenameConversationUseCase;
  send: SendMessageUseCase;
  stream: StreamMessageUseCase;
}): Router {
  const r = new Router({ prefix: '/api/conversations' });
  r.use(d.auth);
  r.get('/', async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  r.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.patch('/:id', async (ctx) => {
    ctx.body = await d.rename.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.archive.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/:id/messages', async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    ctx.body = await d.send.execute(ctx.params.id!, ctx.request.body, actorOf(ctx), abort.signal);
  });
  r.post('/:id/stream', async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    const events = await d.stream.execute(ctx.params.id!, ctx.request.body, actorOf(ctx), abort.signal);
    await writeSse(ctx, events);
  });
  return r;
}
