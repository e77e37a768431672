import * as yup from 'yup';
import type { Clock } from '../../shared/clock.port';
import { ValidationError } from '../../shared/errors';
import type { KeyHasher } from '../../shared/key-hasher.port';
import { str, validate } from '../../shared/validation';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { passwordField } from '../domain/credentials';
import type { PasswordHasher } from '../ports/password-hasher.port';
import type { PasswordResetRepository } from '../ports/password-reset-repository.port';
import type { RefreshTokenRepository } from '../ports/refresh-token-repository.port';

const schema = yup.object({ token: str().required('token is required').max(200), password: passwordField() });

/** Sets a new password with a reset token (once), and signs out every session. */
export class ConfirmPasswordResetUseCase {
  constructor(
    private readonly deps: {
      users: UserRepository;
      resets: PasswordResetRepository;
      refreshTokens: RefreshTokenRepository;
      hasher: PasswordHasher;
      keyHasher: KeyHasher;
      clock: Clock;
    },
  ) {}

  async execute(input: unknown): Promise<{ success: true }> {
    const { token, password } = await validate(schema, input);
    const now = this.deps.clock.now();
    const userId = await this.deps.resets.consume(this.deps.keyHasher.hash(token), now);
    if (!userId) throw ValidationError.field('token', 'The reset token is invalid or has expired');
    await this.deps.users.update(userId, { passwordHash: await this.deps.hasher.hash(password) });
    await this.deps.resets.invalidateAllForUser(userId, now);
    await this.deps.refreshTokens.revokeAllForUser(userId, now);
    return { success: true };
  }
}
