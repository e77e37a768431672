/**
 * Authenticated encryption for secrets stored at rest (provider keys, webhook secrets).
 * `associatedData` names the row the secret belongs to (e.g. `provider-key:<userId>:<provider>`), so a
 * sealed value copied to another row no longer opens.
 */
export interface SecretBox {
  /** Encrypts `plaintext` bound to `associatedData`; two seals of the same text differ. */
  seal(plaintext: string, associatedData: string): string;
  /**
   * Decrypts a value made by `seal` with the same `associatedData`. Throws a `ConflictError` when it was
   * tampered with, belongs to other associated data or was sealed with a key this box does not hold.
   */
  open(sealed: string, associatedData: string): string;
}

/** The one message for every failed `open`, so callers learn nothing about why it failed. */
export const SEALED_SECRET_INTEGRITY_MESSAGE = 'The stored secret failed its integrity check; save it again';
