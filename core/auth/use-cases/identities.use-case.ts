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
    const identities = await this.deps.identities.listForUser(actor.userId);
    if (!identities.some((i) => i.id === id)) throw new NotFoundError('Identity');
    const user = await this.deps.users.findById(actor.userId);
    if (!user?.passwordHash && identities.length <= 1) {
      throw new ConflictError('This is your only way to sign in; set a password (password reset) or link another identity first');
    }
    if (!(await this.deps.identities.delete(actor.userId, id))) throw new NotFoundError('Identity');
  }
}
