import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreateWebhookUseCase } from '../../../core/webhooks/use-cases/create-webhook.use-case';
import type { GetWebhookUseCase } from '../../../core/webhooks/use-cases/get-webhook.use-case';
import type { DeleteWebhookUseCase } from '../../../core/webhooks/use-cases/delete-webhook.use-case';
import type { ListDeliveriesUseCase } from '../../../core/webhooks/use-cases/list-deliveries.use-case';
import type { ListWebhooksUseCase } from '../../../core/webhooks/use-cases/list-webhooks.use-case';
import type { RetryDeliveryUseCase } from '../../../core/webhooks/use-cases/retry-delivery.use-case';
import type { RotateWebhookSecretUseCase } from '../../../core/webhooks/use-cases/rotate-webhook-secret.use-case';
import type { SendTestPingUseCase } from '../../../core/webhooks/use-cases/send-test-ping.use-case';
import type { UpdateWebhookUseCase } from '../../../core/webhooks/use-cases/update-webhook.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** The caller's webhooks (SPEC 4.12, 6.2; EVENTS.md). */
export function webhooksRouter(d: {
  auth: Middleware;
  create: CreateWebhookUseCase;
  list: ListWebhooksUseCase;
  get: GetWebhookUseCase;
  update: UpdateWebhookUseCase;
  remove: DeleteWebhookUseCase;
  rotate: RotateWebhookSecretUseCase;
  test: SendTestPingUseCase;
  deliveries: ListDeliveriesUseCase;
  retry: RetryDeliveryUseCase;
}): Router {
  const r = new Router({ prefix: '/api/webhooks' });
  r.use(d.auth);
  r.get('/', async (ctx) => respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx))));
  r.post('/', async (ctx) => {
    const created = await d.create.execute(ctx.request.body, actorOf(ctx));
    // The signing secret travels in this one answer.
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = created;
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
  r.post('/:id/rotate-secret', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await d.rotate.execute(ctx.params.id!, actorOf(ctx));
  });
  r.post('/:id/test', async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.test.execute(ctx.params.id!, actorOf(ctx));
  });
  r.get('/:id/deliveries', async (ctx) => respondWithPage(ctx, await d.deliveries.execute(ctx.params.id!, ctx.query, actorOf(ctx))));
  r.post('/:id/deliveries/:deliveryId/retry', async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.retry.execute(ctx.params.id!, ctx.params.deliveryId!, actorOf(ctx));
  });
  return r;
}
