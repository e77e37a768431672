/**
 * Short-lived, single-use records of logins in progress (OAuth state, SAML request ids, one-time codes).
 * Keys are high-entropy random strings; the store keeps only their digest.
 */
export interface LoginFlowStore {
  put(key: string, payload: Record<string, unknown>, expiresAt: Date): Promise<void>;
  /** Removes and returns the record when it exists and has not expired; null otherwise (at most one caller gets it). */
  take(key: string, now: Date): Promise<Record<string, unknown> | null>;
  /** Returns the record without removing it (null when missing or expired). */
  peek(key: string, now: Date): Promise<Record<string, unknown> | null>;
}
