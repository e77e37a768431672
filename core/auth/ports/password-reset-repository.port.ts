/** Password-reset tokens, stored by hash only. */
export interface PasswordResetRepository {
  create(record: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void>;
  /** Spends an unexpired, unused token atomically; the user id, or null. */
  consume(tokenHash: string, now: Date): Promise<string | null>;
  /** Spends every outstanding token of the user (after a successful reset). */
  invalidateAllForUser(userId: string, now: Date): Promise<void>;
}
