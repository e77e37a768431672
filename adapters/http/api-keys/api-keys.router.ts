import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreateApiKeyUseCase } from '../../../core/api-keys/use-cases/create-api-key.use-case';
import type { DeleteApiKeyUseCase } from '../../../core/api-keys/use-cases/delete-api-key.use-case';
import type { ListApiKeysUseCase } from '../../../core/api-keys/use-cases/list-api-keys.use-case';
import type { RevokeApiKeyUseCase } from '../../../core/api-keys/use-cases/revoke-api-key.use-case';
import { actorOf } from '../shared/auth.middleware';

/** The caller's API keys (SPEC 4.11). */
export function apiKeysRouter(d: {
  auth: Middleware;
  create: CreateApiKeyUseCase;
  list: ListApiKeysUseCase;
  revoke: RevokeApiKeyUseCase;
  remove: DeleteApiKeyUseCase;
}): Router {
  const r = new Router({ prefix: '/api/api-keys' });
  r.use(d.auth);
  r.get('/', async (ctx) => {
    ctx.body = await d.list.execute(ctx.query, actorOf(ctx));
  });
  r.post('/', async (ctx) => {
    const created = await d.create.execute(ctx.request.body, actorOf(ctx));
    // The raw key travels in this one answer; nothing on the way may keep a copy.
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = created;
  });
  r.post('/:id/revoke', async (ctx) => {
    ctx.body = await d.revoke.execute(ctx.params.id!, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.remove.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
