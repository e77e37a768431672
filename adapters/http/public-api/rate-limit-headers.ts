import type { Context } from 'koa';
import type { RateLimitDecision } from '../../../core/shared/rate-limiter.port';

/** The headers a browser script may read on public-API answers (CORS `Access-Control-Expose-Headers`). */
export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'];

/**
 * Describes the key's window: the de facto `X-RateLimit-*` trio (SPEC 8; the reset as a Unix time in
 * seconds) and the IETF draft's structured `RateLimit-Policy` / `RateLimit` fields (reset in seconds from now).
 */
export function setRateLimitHeaders(ctx: Context, decision: RateLimitDecision, windowSeconds: number): void {
  const resetIn = Math.max(0, Math.ceil((decision.resetAt.getTime() - Date.now()) / 1000));
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(Math.ceil(decision.resetAt.getTime() / 1000)));
  ctx.set('RateLimit-Policy', `"api-key";q=${decision.limit};w=${windowSeconds}`);
  ctx.set('RateLimit', `"api-key";r=${decision.remaining};t=${resetIn}`);
}
