import { timingSafeEqual, createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { NotFoundError, UnauthorizedError } from '../../../core/shared/errors';
import type { PlatformMetrics } from '../../metrics/prom-client.metrics';

/**
 * Times every request to the end of its answer (a streamed one included) and counts it under the
 * route it matched, `unmatched` when none did.
 */
export function requestMetrics(metrics: PlatformMetrics) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    ctx.res.once('finish', () => {
      const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
      metrics.request(ctx.method, typeof route === 'string' ? route : 'unmatched', ctx.status, Number(process.hrtime.bigint() - started) / 1e9);
    });
    await next();
  };
}

const digest = (v: string) => createHash('sha256').update(v).digest();

/**
 * `GET /metrics` in the Prometheus text format, for a scraper holding METRICS_TOKEN
 * (`Authorization: Bearer <token>`); without METRICS_TOKEN the endpoint does not exist (404).
 */
export function metricsRouter(metrics: PlatformMetrics, token: string | undefined): Router {
  const r = new Router();
  r.get('/metrics', async (ctx) => {
    if (!token) throw new NotFoundError('Metrics', 'Metrics are not enabled on this instance');
    const given = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1] ?? '';
    // Compared as digests: equal lengths, and no timing that tells how much of the token was right.
    if (!timingSafeEqual(digest(given), digest(token))) throw new UnauthorizedError('The metrics token is missing or wrong');
    ctx.set('Content-Type', metrics.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await metrics.text();
  });
  return r;
}
