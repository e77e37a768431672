import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { toPublicUser, type PublicUser } from '../domain/user';
import type { UserRepository } from '../ports/user-repository.port';

/** The caller's own user object. */
export class GetCurrentUserUseCase {
  constructor(private readonly deps: { users: UserRepository }) {}

  async execute(actor: Actor): Promise<PublicUser> {
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new NotFoundError('User');
    return toPublicUser(user, actor.role);
  }
}
