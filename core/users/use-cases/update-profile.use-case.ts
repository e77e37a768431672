import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { validate } from '../../shared/validation';
import { displayNameField } from '../../auth/domain/credentials';
import { toPublicUser, type PublicUser } from '../domain/user';
import type { UserRepository } from '../ports/user-repository.port';

const PROTECTED = ['role', 'email', 'password', 'passwordHash', 'id', 'disabled'];
const schema = yup.object({ displayName: displayNameField() });

/** Changes profile fields only; role, e-mail and password are refused here with a 400 naming them. */
export class UpdateProfileUseCase {
  constructor(private readonly deps: { users: UserRepository }) {}

  async execute(input: unknown, actor: Actor): Promise<PublicUser> {
    const body = (input ?? {}) as Record<string, unknown>;
    const refused = PROTECTED.filter((field) => field in body);
    if (refused.length) {
      throw new ValidationError(
        `${refused.join(', ')} cannot be changed here`,
        refused.map((path) => ({ path, message: `${path} cannot be changed on a profile` })),
      );
    }
    const { displayName } = await validate(schema, input);
    const user =
      displayName === undefined
        ? await this.deps.users.findById(actor.userId)
        : await this.deps.users.update(actor.userId, { displayName });
    if (!user) throw new NotFoundError('User');
    return toPublicUser(user, actor.role);
  }
}
