import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { DeleteProviderKeyUseCase } from '../../../core/provider-keys/use-cases/delete-provider-key.use-case';
import type { ListProviderKeysUseCase } from '../../../core/provider-keys/use-cases/list-provider-keys.use-case';
import type { SaveProviderKeyUseCase } from '../../../core/provider-keys/use-cases/save-provider-key.use-case';
import type { ValidateProviderKeyUseCase } from '../../../core/provider-keys/use-cases/validate-provider-key.use-case';
import { actorOf } from '../shared/auth.middleware';
import { abortOnDisconnect } from '../shared/sse';

/** The caller's own provider keys (SPEC 4.6). Responses carry hints only, never a key. */
export function providerKeysRouter(d: {
  auth: Middleware;
  list: ListProviderKeysUseCase;
  save: SaveProviderKeyUseCase;
  remove: DeleteProviderKeyUseCase;
  validate: ValidateProviderKeyUseCase;
}): Router {
  const r = new Router({ prefix: '/api/provider-keys' });
  r.use(d.auth);
  r.get('/', async (ctx) => {
    ctx.body = await d.list.execute(actorOf(ctx));
  });
  r.put('/:provider', async (ctx) => {
    ctx.body = await d.save.execute(ctx.params.provider, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:provider', async (ctx) => {
    await d.remove.execute(ctx.params.provider, actorOf(ctx));
    ctx.status = 204;
  });
  // A refused key is a successful check with a negative answer: 200 with `valid: false`.
  r.post('/:provider/validate', async (ctx) => {
    ctx.body = await d.validate.execute(ctx.params.provider, actorOf(ctx), abortOnDisconnect(ctx).signal);
  });
  return r;
}
