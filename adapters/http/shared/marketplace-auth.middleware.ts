import type { Context, Next } from 'koa';
import type { Actor } from '../../../core/shared/actor';
import { PLATFORM_ROLES, type PlatformRole } from '../../../core/shared/actor';
import { UnauthorizedError } from '../../../core/shared/errors';
import { isUuid } from '../../../core/shared/ids';
import { verifyActingUser } from '../../shared/marketplace-acting-user';
import { serviceTokenAuth } from './service-token.middleware';

/**
 * The marketplace service's guard on every route but health: `Authorization: Bearer $MARKETPLACE_TOKEN` (only the
 * core API holds it), then the acting user the core API signed, if any, as `ctx.state.actor`. A request with
 * acting-user headers that do not verify (or name no user id and platform role) is refused with a 401; one without
 * them acts as nobody: public reads, and the service's own calls (license validation, update checks).
 */
export function marketplaceAuth(token: string, now: () => Date = () => new Date()) {
  const bearer = serviceTokenAuth(token);
  return async (ctx: Context, next: Next): Promise<void> => {
    await bearer(ctx, async () => {
      const signed = Object.keys(ctx.headers).some((name) => name.startsWith('x-acting-'));
      let actor: Actor | undefined;
      if (signed) {
        const acting = verifyActingUser(token, ctx.headers, now());
        if (!acting || !isUuid(acting.userId) || !(PLATFORM_ROLES as readonly string[]).includes(acting.role)) {
          throw new UnauthorizedError('The acting user headers are missing, stale or not signed with the service token');
        }
        actor = { userId: acting.userId, role: acting.role as PlatformRole };
      }
      ctx.state.actor = actor;
      await next();
    });
  };
}

/** The verified acting user of a marketplace request, if any. */
export const actingActor = (ctx: Context): Actor | undefined => ctx.state.actor as Actor | undefined;
