import type { Context, Next } from 'koa';
import type { AuthenticateUseCase } from '../../../core/auth/use-cases/authenticate.use-case';
import type { Actor, PlatformRole } from '../../../core/shared/actor';
import { ForbiddenError, UnauthorizedError } from '../../../core/shared/errors';

/** Requires `Authorization: Bearer <access token>` and puts the actor on `ctx.state.actor`. */
export function bearerAuth(authenticate: AuthenticateUseCase) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new UnauthorizedError('Missing bearer token');
    ctx.state.actor = await authenticate.execute(match[1]!);
    await next();
  };
}

/** Answers 403 unless the actor holds one of the roles (SPEC 5.3). Use after `bearerAuth`. */
export function requireRole(...roles: PlatformRole[]) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const actor = ctx.state.actor as Actor | undefined;
    if (!actor) throw new UnauthorizedError();
    if (!roles.includes(actor.role)) throw new ForbiddenError(`This requires the ${roles.join(' or ')} role`);
    await next();
  };
}

export const actorOf = (ctx: Context): Actor => {
  const actor = ctx.state.actor as Actor | undefined;
  if (!actor) throw new UnauthorizedError();
  return actor;
};
