import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ListAuditRecordsUseCase } from '../../../core/audit/use-cases/list-audit-records.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** The audit log, read only (SPEC 4.12): no route changes a record. */
export function auditRouter(d: { auth: Middleware; list: ListAuditRecordsUseCase }): Router {
  const r = new Router({ prefix: '/api/audit' });
  r.use(d.auth);
  r.get('/', async (ctx) => respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx))));
  return r;
}
