import Router from '@koa/router';
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { CreateThemeUseCase } from '../../../core/themes/use-cases/create-theme.use-case';
import type { GetApplicationThemeCssUseCase } from '../../../core/themes/use-cases/get-application-theme-css.use-case';
import type { GetThemeUseCase } from '../../../core/themes/use-cases/get-theme.use-case';
import type { ListThemesUseCase } from '../../../core/themes/use-cases/list-themes.use-case';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** Themes (SPEC 4.8) and an application's resolved theme as CSS. */
export function themesRouter(d: {
  auth: Middleware;
  create: CreateThemeUseCase;
  list: ListThemesUseCase;
  get: GetThemeUseCase;
  css: GetApplicationThemeCssUseCase;
}): Router {
  const r = new Router();
  r.get('/api/themes', d.auth, async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  r.post('/api/themes', d.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
  });
  r.get('/api/themes/:id', d.auth, async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  // Public, like the widget that reads it: any page may load it; browsers and proxies revalidate by ETag.
  r.get('/api/applications/:id/theme.css', async (ctx) => {
    const css = await d.css.execute(ctx.params.id!);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('Cache-Control', 'public, max-age=60, stale-while-revalidate=600');
    ctx.type = 'text/css; charset=utf-8';
    ctx.etag = createHash('sha256').update(css).digest('base64url').slice(0, 27);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = css;
  });
  return r;
}
