import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import { RateLimitedError, UnauthorizedError } from '../../shared/errors';
import type { RateLimiter } from '../../shared/rate-limiter.port';
import { str, validate } from '../../shared/validation';
import { normalizeEmail } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import type { PasswordHasher } from '../ports/password-hasher.port';
import { ssoRequiredError, type SsoEnforcement } from '../../sso/ports/sso-enforcement.port';
import { issueSession, type Session, type SessionDeps } from './issue-session';

const schema = yup.object({
  email: str().required('email is required').max(254, 'email is too long'),
  password: str().required('password is required').max(256, 'password is too long'),
});

/** Failed logins allowed per e-mail before the next attempt must wait. */
export const LOGIN_FAILURE_RULE = { limit: 5, windowSeconds: 15 * 60 };


/** Signs a user in. Unknown e-mail and wrong password are the same 401; repeated failures are slowed down. */
export class LoginUseCase {
  /** Verified against when the e-mail is unknown, so both failures cost the same time. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly deps: SessionDeps & { users: UserRepository; hasher: PasswordHasher; limiter: RateLimiter; enforcement?: SsoEnforcement },
  ) {}

  async execute(input: unknown): Promise<Session> {
    const { email: rawEmail, password } = await validate(schema, input);
    const email = normalizeEmail(rawEmail);
    const key = `login-failures:${email}`;
    const state = await this.deps.limiter.peek(key, LOGIN_FAILURE_RULE);
    if (state.remaining <= 0) {
      throw new RateLimitedError('Too many failed logins; try again later', state.retryAfterSeconds);
    }
    const user = await this.deps.users.findByEmail(email);
    this.dummyHash ??= this.deps.hasher.hash(randomBytes(16).toString('hex'));
    const ok = await this.deps.hasher.verify(user?.passwordHash ?? (await this.dummyHash), password);
    if (!user || !ok || user.disabled) {
      await this.deps.limiter.consume(key, LOGIN_FAILURE_RULE);
      throw new UnauthorizedError('Invalid e-mail or password');
    }
    await this.deps.limiter.reset(key);
    // Only once the password is proven: a stranger learns nothing about team membership.
    const team = await this.deps.enforcement?.enforcingTeamOf(user.id);
    if (team) throw ssoRequiredError(team);
    return issueSession(this.deps, user);
  }
}
