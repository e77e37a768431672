/**
 * One-way digest of high-entropy random strings (API keys, password-reset tokens), stored and looked up
 * instead of the raw value. Not for passwords: those go through `PasswordHasher`.
 */
export interface KeyHasher {
  /** A deterministic lowercase hex digest of `raw`. */
  hash(raw: string): string;
}
