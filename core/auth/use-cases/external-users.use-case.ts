import { createHash } from 'node:crypto';
import * as yup from 'yup';
import type { Clock } from '../../shared/clock.port';
import { ConflictError, UnauthorizedError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import { normalizeEmail, toPublicUser, effectiveRole, type PublicUser, type User } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { displayNameField } from '../domain/credentials';
import type { ExternalUserRepository } from '../ports/external-user-repository.port';
import { issueSession, type Session, type SessionDeps } from './issue-session';

/** Who the embedding program says its signed-in user is. */
export interface ExternalUserInput {
  /** The program's stable id for the user (never an e-mail, which can change hands). */
  externalId: string;
  /** The user directory the id comes from (default `'default'`): the same id from two issuers is two people. */
  issuer?: string;
  /** The user's e-mail, for the account made on first use (default: a placeholder that receives no mail). */
  email?: string;
  /** The account's display name on first use (default: the e-mail's local part, or the external id). */
  displayName?: string;
}

/** The account behind an external user, and whether this call made it. */
export interface ExternalUserView {
  user: PublicUser;
  created: boolean;
}

/** A session (tokens for the REST API and the console) for an external user. */
export interface ExternalSession extends Session {
  created: boolean;
}

const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

const schema = yup.object({
  externalId: str().required('externalId is required').max(200, 'externalId must be at most 200 characters').matches(NO_CONTROL, 'externalId must not hold control characters'),
  issuer: str().min(1, 'issuer must not be empty').max(100, 'issuer must be at most 100 characters').matches(NO_CONTROL, 'issuer must not hold control characters').default('default'),
  email: str().max(254, 'email is too long').email('email must be a valid e-mail address').optional(),
  displayName: displayNameField().optional(),
});

export interface ExternalUsersDeps {
  users: UserRepository;
  externalUsers: ExternalUserRepository;
  clock: Clock;
  adminEmails: readonly string[];
}

/**
 * Maps an embedding program's user to one platform account, made on first use (role Developer, no password:
 * the account signs in only through the program). Two first uses at once make one account.
 */
export class ResolveExternalUserUseCase {
  constructor(private readonly deps: ExternalUsersDeps) {}

  async execute(input: ExternalUserInput): Promise<ExternalUserView> {
    const { user, created } = await this.resolve(input);
    return { user: toPublicUser(user, effectiveRole(user, this.deps.adminEmails)), created };
  }

  /** The account, as stored. */
  async resolve(input: ExternalUserInput): Promise<{ user: User; created: boolean }> {
    const { externalId, issuer, email, displayName } = await validate(schema, input);
    const known = await this.deps.externalUsers.find(issuer, externalId);
    if (known) return { user: await this.usable(known), created: false };
    const placeholder = placeholderEmail(issuer, externalId);
    const address = email ? normalizeEmail(email) : placeholder;
    let made: User;
    try {
      made = await this.deps.users.create({
        email: address,
        displayName: displayName ?? ((email ? address.split('@')[0] : '') || [...externalId].slice(0, 100).join('')),
        role: 'developer',
        passwordHash: '', // matches no password
      });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // The placeholder is this external user's alone: a concurrent first use made the account a moment ago.
      const raced = address === placeholder ? await this.deps.users.findByEmail(placeholder) : null;
      const mappedMeanwhile = await this.deps.externalUsers.find(issuer, externalId);
      if (mappedMeanwhile) return { user: await this.usable(mappedMeanwhile), created: false };
      if (!raced) throw new ConflictError('An account with this e-mail already exists: an external user is never linked to an account by its e-mail');
      made = raced;
    }
    const mapped = await this.deps.externalUsers.link(issuer, externalId, made.id);
    if (mapped === made.id) return { user: made, created: true };
    if (made.email !== placeholder) await this.deps.users.delete(made.id); // a concurrent first use won: its account is the one
    return { user: await this.usable(mapped), created: false };
  }

  private async usable(userId: string): Promise<User> {
    const user = await this.deps.users.findById(userId);
    if (!user || user.disabled) throw new UnauthorizedError('This account is disabled');
    return user;
  }
}

/** Signs an external user in: the account (made on first use) and a session, as a login answers. */
export class IssueExternalSessionUseCase {
  constructor(private readonly deps: ExternalUsersDeps & SessionDeps & { resolve: ResolveExternalUserUseCase }) {}

  async execute(input: ExternalUserInput): Promise<ExternalSession> {
    const { user, created } = await this.deps.resolve.resolve(input);
    return { ...(await issueSession(this.deps, user)), created };
  }
}

/**
 * The address of an external user who gave none: unique per (issuer, id), in the `.invalid` domain that never
 * resolves (RFC 2606), so no mail is ever delivered for it.
 */
export function placeholderEmail(issuer: string, externalId: string): string {
  const digest = createHash('sha256').update(`${issuer}\u0000${externalId}`).digest('hex').slice(0, 32);
  return `external-${digest}@users.invalid`;
}
