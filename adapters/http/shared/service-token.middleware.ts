import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { UnauthorizedError } from '../../../core/shared/errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A service guard: `Authorization: Bearer <token>` (AI_SERVICE_TOKEN, MARKETPLACE_TOKEN), compared in constant time. */
export function serviceTokenAuth(token: string) {
  const expected = digest(token);
  return async (ctx: Context, next: Next): Promise<void> => {
    const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'));
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) throw new UnauthorizedError('A valid service token is required');
    await next();
  };
}
