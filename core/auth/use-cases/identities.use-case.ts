import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { toPublicIdentity, type PublicIdentity } from '../domain/external-identity';
import type { IdentityRepository } from '../ports/identity-repository.port';

/** The identities linked to the signed-in user, and unlinking one that is not the last way to sign in. */
export class IdentitiesUseCase {
  constructor(private readonly deps: { users: UserRepository; identities: IdentityRepository }) {}

  async list(actor: Actor): Promise<{ hasPassword: boolean; identities: PublicIdentity[] }> {
    const user = await this.deps.users.findById(actor.userId);
    const identities = await this.deps.identities.listForUser(actor.userId);
    return { hasPassword: !!user?.passwordHash, identities: identities.map(toPublicIdentity) };
  }

  async remove(id: string, actor: Actor): Promise<void> {
    if (!isUuid(id)) throw new NotFoundError('Identity');
    const outcome = await this.deps.identities.deleteUnlessLast(actor.userId, id);
    if (outcome === 'missing') throw new NotFoundError('Identity');
    if (outcome === 'last') {
      throw new ConflictError('This is your only way to sign in; set a password (password reset) or link another identity first');
    }
  }
}
