import Router from '@koa/router';
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { GetHostedApplicationUseCase } from '../../../core/public-api/use-cases/get-hosted-application.use-case';
import type { GetHostedConversationUseCase } from '../../../core/public-api/use-cases/get-hosted-conversation.use-case';
import type { StreamHostedMessageUseCase } from '../../../core/public-api/use-cases/stream-hosted-message.use-case';
import { NotFoundError } from '../../../core/shared/errors';
import { abortOnDisconnect, writeSse } from '../shared/sse';
import { hostedPageCsp, hostedPageHtml, notFoundHtml } from './hosted-page.html';

export const CONVERSATION_TOKEN_HEADER = 'X-Conversation-Token';

function pageHeaders(ctx: Context): string {
  const nonce = randomBytes(16).toString('base64');
  ctx.set('Content-Security-Policy', hostedPageCsp(nonce));
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  return nonce;
}

/** The "chat not found" page, as HTML (browsers land here, not API clients). */
export function serveNotFoundPage(ctx: Context): void {
  const nonce = pageHeaders(ctx);
  ctx.status = 404;
  ctx.body = notFoundHtml(nonce);
}

/** Serves the hosted page of an application (its slug), or the 404 page; shared with custom domains. */
export async function serveHostedPage(ctx: Context, app: GetHostedApplicationUseCase, slug: string): Promise<void> {
  let view;
  try {
    view = await app.execute(slug);
  } catch (error) {
    if (error instanceof NotFoundError) return serveNotFoundPage(ctx);
    throw error;
  }
  const nonce = pageHeaders(ctx);
  ctx.status = 200;
  ctx.body = hostedPageHtml(view, nonce);
}

/** The hosted chat page (`GET /chat/:slug`) and the same-origin API its widget (page mode) calls. */
export function hostedPageRouter(d: { app: GetHostedApplicationUseCase; stream: StreamHostedMessageUseCase; conversation: GetHostedConversationUseCase }): Router {
  const r = new Router();
  r.get('/chat/:slug', async (ctx) => {
    await serveHostedPage(ctx, d.app, ctx.params.slug!);
  });
  r.get('/api/hosted/:slug/app', async (ctx) => {
    ctx.body = await d.app.execute(ctx.params.slug!);
  });
  r.post('/api/hosted/:slug/chat/stream', async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    const visitor = { address: ctx.ip, token: ctx.get(CONVERSATION_TOKEN_HEADER) || undefined };
    const { conversationId, token, events } = await d.stream.execute(ctx.params.slug!, ctx.request.body, visitor, abort.signal);
    await writeSse(ctx, events, { 'X-Conversation-Id': conversationId, [CONVERSATION_TOKEN_HEADER]: token });
  });
  r.get('/api/hosted/:slug/conversations/:id', async (ctx) => {
    ctx.body = await d.conversation.execute(ctx.params.slug!, ctx.params.id!, ctx.get(CONVERSATION_TOKEN_HEADER));
  });
  return r;
}
