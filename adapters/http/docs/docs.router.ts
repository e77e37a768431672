import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Router from '@koa/router';

const UI_DIR = join(require.resolve('swagger-ui-dist/package.json'), '..');
const UI_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/** `GET /api/openapi.json` and Swagger UI at `/api/docs`. */
export function docsRouter(document: object, title: string): Router {
  const r = new Router();
  const json = JSON.stringify(document);
  r.get('/api/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = json;
  });
  r.get('/api/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script><script src="/api/docs/init.js"></script></body></html>`;
  });
  r.get('/api/docs/init.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#ui' });`;
  });
  r.get('/api/docs/:asset', (ctx) => {
    const asset = ctx.params.asset!;
    // Own keys only: `constructor` or `__proto__` must not find Object.prototype's members (404, not a file read).
    const type = Object.hasOwn(UI_ASSETS, asset) ? UI_ASSETS[asset] : undefined;
    if (!type) return;
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = readFileSync(join(UI_DIR, asset));
  });
  return r;
}
