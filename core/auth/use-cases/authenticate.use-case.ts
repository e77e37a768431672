import type { Actor } from '../../shared/actor';
import { UnauthorizedError } from '../../shared/errors';
import { effectiveRole } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import type { TokenService } from '../ports/token-service.port';

/** Turns a bearer token into the actor; a deleted or disabled account's tokens stop working at once. */
export class AuthenticateUseCase {
  constructor(private readonly deps: { tokens: TokenService; users: UserRepository; adminEmails: readonly string[] }) {}

  async execute(token: string): Promise<Actor> {
    const claims = this.deps.tokens.verifyAccessToken(token);
    const user = await this.deps.users.findById(claims.userId);
    if (!user || user.disabled) throw new UnauthorizedError('Invalid or expired token');
    return { userId: user.id, role: effectiveRole(user, this.deps.adminEmails) };
  }
}
