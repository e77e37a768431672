import type { Context, Next } from 'koa';

/** Conservative headers for a JSON API: no sniffing, no framing, no referrer leaks. */
export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  await next();
}
