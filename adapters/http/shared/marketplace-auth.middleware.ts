import type { Context, Next } from 'koa';
import { UnauthorizedError } from '../../../core/shared/errors';
import { verifyActingUser, type ActingUser } from '../../shared/marketplace-acting-user';
import { serviceTokenAuth } from './service-token.middleware';

/**
 * The marketplace service's guard on every route but health: `Authorization: Bearer $MARKETPLACE_TOKEN` (only the
 * core API holds it), then the acting user the core API signed, if any, in `ctx.state.actingUser`. A request with
 * acting-user headers that do not verify is refused (401); one without them acts as nobody (public reads only).
 */
export function marketplaceAuth(token: string, now: () => Date = () => new Date()) {
  const bearer = serviceTokenAuth(token);
  return async (ctx: Context, next: Next): Promise<void> => {
    await bearer(ctx, async () => {
      const signed = Object.keys(ctx.headers).some((name) => name.startsWith('x-acting-'));
      let acting: ActingUser | null = null;
      if (signed) {
        acting = verifyActingUser(token, ctx.headers, now());
        if (!acting) throw new UnauthorizedError('The acting user headers are missing, stale or not signed with the service token');
      }
      ctx.state.actingUser = acting ?? undefined;
      await next();
    });
  };
}
