import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import type { AnalyticsRecorder } from '../../../core/analytics/use-cases/analytics-recorder';
import type { GetAnalyticsUseCase } from '../../../core/analytics/use-cases/get-analytics.use-case';
import type { RecordWidgetLoadUseCase } from '../../../core/analytics/use-cases/record-widget-load.use-case';
import type { PublicCaller } from '../../../core/public-api/domain/public-caller';
import { isUuid } from '../../../core/shared/ids';
import { callerOf } from '../public-api/api-key.middleware';
import { actorOf } from '../shared/auth.middleware';

/** `GET /api/analytics/{overview,usage,conversations,costs}?applicationId=&from=&to=` for the signed-in owner. */
export function analyticsRouter(d: { auth: Middleware; analytics: GetAnalyticsUseCase }): Router {
  const r = new Router({ prefix: '/api/analytics' });
  r.get('/overview', d.auth, async (ctx) => {
    ctx.body = await d.analytics.overview(ctx.query, actorOf(ctx));
  });
  r.get('/usage', d.auth, async (ctx) => {
    ctx.body = await d.analytics.usage(ctx.query, actorOf(ctx));
  });
  r.get('/conversations', d.auth, async (ctx) => {
    ctx.body = await d.analytics.conversations(ctx.query, actorOf(ctx));
  });
  r.get('/costs', d.auth, async (ctx) => {
    ctx.body = await d.analytics.costs(ctx.query, actorOf(ctx));
  });
  return r;
}

/** `POST /api/v1/widget/loaded` (X-API-Key): the widget's one report per page load; 204. */
export function widgetLoadRouter(d: { apiKey: Middleware; recordLoad: RecordWidgetLoadUseCase }): Router {
  const r = new Router();
  r.post('/api/v1/widget/loaded', d.apiKey, async (ctx) => {
    await d.recordLoad.execute(ctx.request.body, callerOf(ctx));
    ctx.status = 204;
  });
  return r;
}

/**
 * Counts the public API's calls (`api_call`, by the caller's source) without a write: after the
 * answer, a call admitted by its key is counted for its application when that is certain: the key's
 * own application, or, for a key covering all of its owner's applications, the application the
 * request named or the answer showed, once the answer succeeded (so the key's scope was checked).
 */
export function apiCallCounter(recorder: AnalyticsRecorder, applications: ApplicationRepository) {
  return async (ctx: Context, next: Next): Promise<void> => {
    let failed = false;
    try {
      await next();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      const caller = ctx.state.publicCaller as PublicCaller | undefined;
      if (caller?.key.applicationId) recorder.record({ type: 'api_call', applicationId: caller.key.applicationId, source: caller.source });
      else if (caller && !failed && ctx.status < 400) void countNamed(ctx, caller);
    }
  };

  /** An id a request names could be anyone's: it is counted only when the key's owner owns it. */
  async function countNamed(ctx: Context, caller: PublicCaller): Promise<void> {
    const id = namedApplication(ctx);
    if (!id) return;
    const app = await applications.findById(id).catch(() => null);
    if (app && app.ownerId === caller.key.ownerId) recorder.record({ type: 'api_call', applicationId: app.id, source: caller.source });
  }
}

function namedApplication(ctx: Context): string | undefined {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  const answer = ctx.body as Record<string, unknown> | undefined;
  for (const candidate of [ctx.query.applicationId, body && typeof body === 'object' ? body.applicationId : undefined, answer && typeof answer === 'object' ? answer.applicationId : undefined]) {
    if (typeof candidate === 'string' && isUuid(candidate.toLowerCase())) return candidate.toLowerCase();
  }
  return undefined;
}
