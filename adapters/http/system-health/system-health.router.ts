import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { GetSystemHealthUseCase } from '../../../core/health/use-cases/get-system-health.use-case';
import { requireRole } from '../shared/auth.middleware';

/** `GET /api/system-health` (admins): the platform's status and each component's, always 200 when answered. */
export function systemHealthRouter(d: { auth: Middleware; health: GetSystemHealthUseCase }): Router {
  const r = new Router();
  r.get('/api/system-health', d.auth, requireRole('admin'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await d.health.execute();
  });
  return r;
}
