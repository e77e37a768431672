import type { Context } from 'koa';

/**
 * The `Origin` of a cross-origin browser request, or undefined for servers (no header) and for pages
 * served by this API itself. (Koa 3's `ctx.origin` is the request's Origin header, not our own.)
 */
export function foreignOrigin(ctx: Context): string | undefined {
  const origin = ctx.get('Origin');
  return origin !== '' && origin !== `${ctx.protocol}://${ctx.host}` ? origin : undefined;
}
