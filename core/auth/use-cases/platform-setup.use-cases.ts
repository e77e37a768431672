import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import type { Clock } from '../../shared/clock.port';
import { ValidationError } from '../../shared/errors';
import type { KeyHasher } from '../../shared/key-hasher.port';
import { str, validate } from '../../shared/validation';
import { normalizeEmail } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { displayNameField, emailField, passwordField } from '../domain/credentials';
import type { PasswordHasher } from '../ports/password-hasher.port';
import type { PlatformSetupRepository } from '../ports/platform-setup-repository.port';
import { issueSession, type Session, type SessionDeps } from './issue-session';

/** How long a printed setup link works; a restart prints a fresh one while the platform has no admin. */
export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export interface SetupLink {
  /** The raw one-time token: printed once in the start log, never stored. */
  token: string;
  expiresAt: Date;
}

/**
 * At start: while the platform has no admin (none stored, none of ADMIN_EMAILS registered), a new one-time
 * setup token, valid a day. Only its digest is stored, so each start replaces the previous link with a new
 * one it can print; null once the platform has its admin.
 */
export class IssueSetupLinkUseCase {
  constructor(private readonly deps: { setup: PlatformSetupRepository; keyHasher: KeyHasher; clock: Clock; adminEmails: readonly string[] }) {}

  async execute(): Promise<SetupLink | null> {
    if (await this.deps.setup.hasAdmin(this.deps.adminEmails)) return null;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.deps.clock.now().getTime() + SETUP_TOKEN_TTL_MS);
    await this.deps.setup.replace(this.deps.keyHasher.hash(token), expiresAt);
    return { token, expiresAt };
  }
}

const schema = yup.object({
  token: str().required('token is required').max(200, 'token is too long'),
  email: emailField(),
  password: passwordField(),
  displayName: displayNameField().required('displayName is required'),
});

export const SETUP_LINK_INVALID =
  'This setup link no longer works: it was used, it expired, or a later start replaced it. While the platform has no admin, each start prints a new link in its log.';

/**
 * The setup link's account: created as the platform's admin and signed in. The token is spent atomically
 * before the account is made (two requests with one link make one admin) and given back when the account
 * cannot be made (a taken e-mail), so the operator can try again with the same link.
 */
export class CompleteSetupUseCase {
  constructor(private readonly deps: SessionDeps & { setup: PlatformSetupRepository; users: UserRepository; hasher: PasswordHasher; keyHasher: KeyHasher }) {}

  async execute(input: unknown): Promise<Session> {
    const { token, email, password, displayName } = await validate(schema, input);
    const tokenHash = this.deps.keyHasher.hash(token);
    // Hash before spending the token, so a slow hash never holds it.
    const passwordHash = await this.deps.hasher.hash(password);
    if (!(await this.deps.setup.consume(tokenHash, this.deps.clock.now()))) throw ValidationError.field('token', SETUP_LINK_INVALID);
    let user;
    try {
      user = await this.deps.users.create({ email: normalizeEmail(email), displayName, role: 'admin', passwordHash });
    } catch (error) {
      await this.deps.setup.release(tokenHash);
      throw error;
    }
    await this.deps.setup.completed(tokenHash, user.id);
    return issueSession(this.deps, user);
  }
}
