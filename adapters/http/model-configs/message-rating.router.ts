import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { RateMessageUseCase } from '../../../core/model-configs/use-cases/rate-message.use-case';
import { actorOf } from '../shared/auth.middleware';

/** Ratings of answers, which feed the satisfaction score of A/B versions. */
export function messageRatingRouter(d: { auth: Middleware; rate: RateMessageUseCase }): Router {
  const r = new Router({ prefix: '/api/conversations' });
  r.use(d.auth);
  r.post('/:id/messages/:messageId/rating', async (ctx) => {
    ctx.body = await d.rate.execute(ctx.params.id!, ctx.params.messageId!, ctx.request.body, actorOf(ctx));
  });
  return r;
}
