import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock.port';
import { ConflictError, ForbiddenError, UnauthorizedError } from '../../shared/errors';
import { normalizeEmail, type User } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { displayNameFrom, type ExternalProfile, type IdentityProvider } from '../domain/external-identity';
import type { IdentityRepository } from '../ports/identity-repository.port';
import type { LoginFlowStore } from '../ports/login-flow-store.port';

export interface ExternalSignInDeps {
  users: UserRepository;
  identities: IdentityRepository;
  clock: Clock;
}

export interface LinkPolicy {
  /** Whether an existing account with the profile's e-mail may be linked to this identity. */
  mayLink(user: User): Promise<boolean>;
  /** Whether a new account may be created for the profile's e-mail. */
  mayCreate: boolean;
  /** The message when the e-mail belongs to an account that may not be linked. */
  refusal: string;
}

/** A random single-use key: 256 bits, base64url (43 characters). */
export const randomKey = (): string => randomBytes(32).toString('base64url');

/** The account behind an external identity: the one linked before, else one found by e-mail, else a new one. */
export async function signInExternal(
  deps: ExternalSignInDeps,
  source: { provider: IdentityProvider; ssoConfigId: string | null },
  profile: ExternalProfile,
  policy: LinkPolicy,
): Promise<{ user: User; created: boolean }> {
  const now = deps.clock.now();
  const email = profile.email ? normalizeEmail(profile.email) : null;
  const linked = await deps.identities.find(source.provider, source.ssoConfigId, profile.subject);
  if (linked) {
    const user = await deps.users.findById(linked.userId);
    if (!user || user.disabled) throw new UnauthorizedError('This account is disabled');
    await deps.identities.touch(linked.id, email, now);
    return { user, created: false };
  }
  if (!email) throw new UnauthorizedError('The identity provider did not share an e-mail address');
  const existing = await deps.users.findByEmail(email);
  if (existing) {
    if (!(await policy.mayLink(existing))) throw new ConflictError(policy.refusal);
    if (existing.disabled) throw new UnauthorizedError('This account is disabled');
    await deps.identities.create({ userId: existing.id, ...source, subject: profile.subject, email });
    return { user: existing, created: false };
  }
  if (!policy.mayCreate) throw new ForbiddenError('The identity provider did not verify this e-mail address, so no account can be made for it');
  // An empty hash matches no password: the account signs in through its identity until a password is set by reset.
  const user = await deps.users.create({ email, displayName: displayNameFrom(profile), role: 'developer', passwordHash: '' });
  await deps.identities.create({ userId: user.id, ...source, subject: profile.subject, email });
  return { user, created: true };
}

/** How long the one-time code of a finished external login may be exchanged for tokens. */
export const LOGIN_CODE_TTL_MS = 60_000;

/** A one-time code for the user's tokens, handed to the client in a redirect so tokens never sit in a URL. */
export async function issueLoginCode(flows: LoginFlowStore, clock: Clock, userId: string): Promise<string> {
  const code = randomKey();
  await flows.put(`code:${code}`, { userId }, new Date(clock.now().getTime() + LOGIN_CODE_TTL_MS));
  return code;
}

/** `base` with `?code=` (or `&code=`) added. */
export function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}
