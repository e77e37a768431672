import Router from '@koa/router';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../../../core/shared/errors';
import type { CheckWidgetOriginUseCase } from '../../../core/public-api/use-cases/check-widget-origin.use-case';
import { foreignOrigin } from './browser-origin';
import { projectRoot } from '../../shared/project-root';

/**
 * `GET /public/widget-access?applicationId=`: whether the asking page's origin may use the application.
 * Readable from any origin (CORS `*`, no credentials, no custom header, so no preflight): it is how a
 * widget on an origin the application does not list learns why its other requests are refused.
 */
export function widgetAccessRouter(check: CheckWidgetOriginUseCase): Router {
  const r = new Router();
  r.get('/public/widget-access', async (ctx) => {
    const answer = await check.execute(ctx.query.applicationId, foreignOrigin(ctx));
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-store');
    ctx.vary('Origin');
    ctx.body = answer;
  });
  return r;
}

/**
 * `GET /public/widget.js`: the embeddable script, for any site (CORS `*`, cross-origin resource policy),
 * cached by browsers for five minutes and revalidated by ETag, so a new release reaches pages quickly.
 */
export function widgetScriptRouter(file = join(projectRoot(), 'public', 'widget.js')): Router {
  let loaded: { body: Buffer; etag: string; mtimeMs: number } | undefined;
  const load = async () => {
    const info = await stat(file).catch(() => null);
    if (!info) throw new NotFoundError('Widget script');
    if (loaded?.mtimeMs !== info.mtimeMs) {
      const body = await readFile(file);
      loaded = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, mtimeMs: info.mtimeMs };
    }
    return loaded;
  };
  const r = new Router();
  r.get('/public/widget.js', async (ctx) => {
    const script = await load();
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('Cache-Control', 'public, max-age=300, stale-while-revalidate=3600');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.etag = script.etag;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = script.body;
  });
  return r;
}
