/**
 * The setup link of a fresh install: at most one outstanding one-time token, stored as its digest with an
 * expiry. Spending it is atomic, so two requests with the same link make one admin.
 */
export interface PlatformSetupRepository {
  /** Whether the platform has an admin: an account stored as admin, or one whose e-mail is in `adminEmails`. */
  hasAdmin(adminEmails: readonly string[]): Promise<boolean>;
  /** Stores a new token's digest and expiry, replacing any earlier one (whose link stops working). */
  replace(tokenHash: string, expiresAt: Date): Promise<void>;
  /** Spends the token when it is the current one, unused and unexpired; true when this call spent it. */
  consume(tokenHash: string, now: Date): Promise<boolean>;
  /** Gives a spent token back (the account could not be created: e-mail taken), so the link works again. */
  release(tokenHash: string): Promise<void>;
  /** Records the account the link created. */
  completed(tokenHash: string, userId: string): Promise<void>;
}
