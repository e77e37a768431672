import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { GetPublicApplicationBySlugUseCase } from '../../../core/public-api/use-cases/get-public-application-by-slug.use-case';
import type { GetPublicApplicationUseCase } from '../../../core/public-api/use-cases/get-public-application.use-case';
import type { GetPublicConversationUseCase } from '../../../core/public-api/use-cases/get-public-conversation.use-case';
import type { SendPublicMessageUseCase } from '../../../core/public-api/use-cases/send-public-message.use-case';
import type { StreamPublicMessageUseCase } from '../../../core/public-api/use-cases/stream-public-message.use-case';
import { abortOnDisconnect, writeSse } from '../shared/sse';
import { callerOf } from './api-key.middleware';

/** The public API (SPEC 4.10), authenticated by `X-API-Key`. */
export function publicApiRouter(d: {
  apiKey: Middleware;
  send: SendPublicMessageUseCase;
  stream: StreamPublicMessageUseCase;
  app: GetPublicApplicationUseCase;
  appBySlug: GetPublicApplicationBySlugUseCase;
  conversation: GetPublicConversationUseCase;
}): Router {
  const r = new Router();
  r.use(d.apiKey);
  const chat = async (ctx: Context) => {
    const abort = abortOnDisconnect(ctx);
    const answer = await d.send.execute(ctx.request.body, callerOf(ctx), abort.signal);
    ctx.set('X-Conversation-Id', answer.conversationId);
    ctx.body = answer;
  };
  r.post('/api/public/chat', chat);
  r.post('/api/v1/chat', chat);
  r.post('/api/v1/chat/stream', async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    const { conversationId, events } = await d.stream.execute(ctx.request.body, callerOf(ctx), abort.signal);
    await writeSse(ctx, events, { 'X-Conversation-Id': conversationId });
  });
  r.get('/api/v1/app', async (ctx) => {
    ctx.body = await d.app.execute(ctx.query, callerOf(ctx));
  });
  r.get('/api/v1/app/:slug', async (ctx) => {
    ctx.body = await d.appBySlug.execute(ctx.params.slug!, callerOf(ctx));
  });
  r.get('/api/v1/conversations/:id', async (ctx) => {
    ctx.body = await d.conversation.execute(ctx.params.id!, callerOf(ctx));
  });
  return r;
}
