import Router from '@koa/router';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../../shared/project-root';

/**
 * `GET /favicon.ico`: the platform's icon, which browsers ask every service for (opening the API reference, say);
 * without it each page view logged a 404. Cached by browsers for a day.
 */
export function faviconRouter(file = join(projectRoot(), 'public', 'favicon.ico')): Router {
  let icon: Promise<Buffer> | undefined;
  const r = new Router();
  r.get('/favicon.ico', async (ctx) => {
    icon ??= readFile(file).catch((error: unknown) => {
      icon = undefined;
      throw error;
    });
    ctx.type = 'image/x-icon';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await icon;
  });
  return r;
}
