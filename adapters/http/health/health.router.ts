import Router from '@koa/router';
import type { GetHealthUseCase } from '../../../core/health/use-cases/get-health.use-case';

/** `GET /api/health`: 200 while the service can serve, 503 when it is down. */
export function healthRouter(health: GetHealthUseCase): Router {
  const r = new Router();
  r.get('/api/health', async (ctx) => {
    const report = await health.execute();
    ctx.status = report.status === 'down' ? 503 : 200;
    ctx.body = report;
  });
  return r;
}
