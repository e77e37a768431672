import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Context, Next } from 'koa';

/** Paths the console never answers: they belong to the API, the widget, hosted pages and metrics. */
const RESERVED = /^\/(api|public|chat|metrics|marketplace|\.well-known)(\/|$)/;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The console pages' policy: scripts and styles from the platform only (no inline code, no eval), API
 * calls to the platform only, framed by nobody; frames (the widget preview, plugin admin pages) are the
 * platform's own sandboxed pages.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface Cached {
  body: Buffer;
  mtimeMs: number;
}

/**
 * Serves the built console (`apps/console/dist`) at `/` with client-side routes: a GET or HEAD no route
 * answered gets the file it names, or the console's page (the browser app routes from there). Runs after
 * routing, so every API route, and the JSON 404 of unknown API paths, stays as it was.
 */
export function consolePages(distDir: string) {
  const cache = new Map<string, Cached>();
  const load = async (file: string): Promise<Buffer | null> => {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit.body;
    const body = await readFile(file);
    cache.set(file, { body, mtimeMs: info.mtimeMs });
    return body;
  };

  return async (ctx: Context, next: Next): Promise<void> => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    if (RESERVED.test(ctx.path)) return;

    const relative = normalize(decodeURIComponent(ctx.path)).replace(/^([/\\])+/, '');
    if (relative.split(sep).includes('..') || relative.includes('\0')) return;
    const file = relative && extname(relative) ? join(distDir, relative) : null;
    if (file) {
      const body = await load(file);
      if (!body) return; // a missing asset is a plain 404, not the page
      ctx.status = 200;
      ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
      ctx.set('Cache-Control', relative.startsWith(`assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.body = body;
      return;
    }
    const page = await load(join(distDir, 'index.html'));
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    if (!page) {
      ctx.status = 503;
      ctx.body = '<!doctype html><title>Console not built</title><p>The console has not been built. Run <code>npm run build:console</code>.</p>';
      return;
    }
    ctx.status = 200;
    ctx.body = page;
  };
}
