import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ActivateCustomDomainUseCase } from '../../../core/domains/use-cases/activate-custom-domain.use-case';
import type { CheckTlsAllowedUseCase } from '../../../core/domains/use-cases/check-tls-allowed.use-case';
import type { CreateCustomDomainUseCase } from '../../../core/domains/use-cases/create-custom-domain.use-case';
import type { DeleteCustomDomainUseCase } from '../../../core/domains/use-cases/delete-custom-domain.use-case';
import type { GetCustomDomainUseCase } from '../../../core/domains/use-cases/get-custom-domain.use-case';
import type { ListCustomDomainsUseCase } from '../../../core/domains/use-cases/list-custom-domains.use-case';
import type { UpdateCustomDomainUseCase } from '../../../core/domains/use-cases/update-custom-domain.use-case';
import type { VerifyCustomDomainUseCase } from '../../../core/domains/use-cases/verify-custom-domain.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** Custom domains (SPEC 2.11, EXTENSIONS.md), and the reverse proxy's TLS `ask` endpoint. */
export function customDomainsRouter(d: {
  auth: Middleware;
  create: CreateCustomDomainUseCase;
  list: ListCustomDomainsUseCase;
  get: GetCustomDomainUseCase;
  update: UpdateCustomDomainUseCase;
  remove: DeleteCustomDomainUseCase;
  verify: VerifyCustomDomainUseCase;
  activate: ActivateCustomDomainUseCase;
  tlsAllowed: CheckTlsAllowedUseCase;
}): Router {
  const r = new Router({ prefix: '/api/custom-domains' });
  // Unauthenticated: the proxy asks before each new certificate; it answers only yes (200) or no (404).
  r.get('/tls-allowed', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await d.tlsAllowed.execute(ctx.query);
  });
  r.get('/', d.auth, async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  r.post('/', d.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
  });
  r.get('/:id', d.auth, async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.put('/:id', d.auth, async (ctx) => {
    ctx.body = await d.update.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id', d.auth, async (ctx) => {
    await d.remove.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/:id/verify', d.auth, async (ctx) => {
    ctx.body = await d.verify.execute(ctx.params.id!, actorOf(ctx));
  });
  r.post('/:id/activate', d.auth, async (ctx) => {
    ctx.body = await d.activate.execute(ctx.params.id!, actorOf(ctx));
  });
  return r;
}
