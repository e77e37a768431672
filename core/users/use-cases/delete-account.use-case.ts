import * as yup from 'yup';
import type { PasswordHasher } from '../../auth/ports/password-hasher.port';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { UserRepository } from '../ports/user-repository.port';

const schema = yup.object({ password: str().required('password is required to delete the account').max(256) });

/** Deletes the caller's account and everything it owns, after checking the current password. */
export class DeleteAccountUseCase {
  constructor(private readonly deps: { users: UserRepository; hasher: PasswordHasher }) {}

  async execute(input: unknown, actor: Actor): Promise<void> {
    const { password } = await validate(schema, input);
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new NotFoundError('User');
    if (!(await this.deps.hasher.verify(user.passwordHash, password))) {
      throw ValidationError.field('password', 'password is incorrect');
    }
    await this.deps.users.delete(user.id);
  }
}
