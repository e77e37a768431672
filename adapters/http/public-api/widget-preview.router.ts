import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { IssueWidgetPreviewUseCase } from '../../../core/public-api/use-cases/issue-widget-preview.use-case';
import { actorOf } from '../shared/auth.middleware';

/**
 * `POST /api/applications/:id/widget-preview`: a short-lived widget preview session for the console's
 * preview frame (the owner's JWT, `write` on the application). The token is a credential: never cached.
 */
export function widgetPreviewRouter(d: { auth: Middleware; issue: IssueWidgetPreviewUseCase }): Router {
  const r = new Router();
  r.post('/api/applications/:id/widget-preview', d.auth, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = await d.issue.execute(ctx.params.id, actorOf(ctx));
  });
  return r;
}
