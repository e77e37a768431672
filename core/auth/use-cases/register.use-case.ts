import * as yup from 'yup';
import { validate } from '../../shared/validation';
import { normalizeEmail } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { displayNameField, emailField, passwordField } from '../domain/credentials';
import type { PasswordHasher } from '../ports/password-hasher.port';
import { issueSession, type Session, type SessionDeps } from './issue-session';

const schema = yup.object({
  email: emailField(),
  password: passwordField(),
  displayName: displayNameField().required('displayName is required'),
});

/** Creates an account (a taken e-mail is a 409) and signs it in. */
export class RegisterUseCase {
  constructor(private readonly deps: SessionDeps & { users: UserRepository; hasher: PasswordHasher }) {}

  async execute(input: unknown): Promise<Session> {
    const { email, password, displayName } = await validate(schema, input);
    const user = await this.deps.users.create({
      email: normalizeEmail(email),
      displayName,
      role: 'developer',
      passwordHash: await this.deps.hasher.hash(password),
    });
    return issueSession(this.deps, user);
  }
}
