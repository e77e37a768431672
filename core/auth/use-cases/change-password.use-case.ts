import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { UnauthorizedError, ValidationError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { passwordField } from '../domain/credentials';
import type { PasswordHasher } from '../ports/password-hasher.port';
import type { RefreshTokenRepository } from '../ports/refresh-token-repository.port';

const schema = yup.object({
  currentPassword: str().required('currentPassword is required').max(256),
  newPassword: passwordField('newPassword'),
});

/** Changes the password after checking the current one, and signs out every session (all refresh tokens). */
export class ChangePasswordUseCase {
  constructor(
    private readonly deps: { users: UserRepository; hasher: PasswordHasher; refreshTokens: RefreshTokenRepository; clock: Clock },
  ) {}

  async execute(input: unknown, actor: Actor): Promise<{ success: true }> {
    const { currentPassword, newPassword } = await validate(schema, input);
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new UnauthorizedError();
    if (!(await this.deps.hasher.verify(user.passwordHash, currentPassword))) {
      throw ValidationError.field('currentPassword', 'currentPassword is incorrect');
    }
    await this.deps.users.update(user.id, { passwordHash: await this.deps.hasher.hash(newPassword) });
    await this.deps.refreshTokens.revokeAllForUser(user.id, this.deps.clock.now());
    return { success: true };
  }
}
