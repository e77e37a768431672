import { ConflictError, isAppError } from '../../shared/errors';
import type { SecretBox } from '../../shared/secret-box.port';
import { providerKeyAssociatedData, type ProviderKey } from '../domain/provider-key';

/**
 * The raw key of a stored record, for the one request that needs it; never cache or log the result.
 * A ciphertext that was tampered with, copied from another row or sealed with an unknown key is a 409
 * telling the user to save the key again.
 */
export function openProviderKey(secretBox: SecretBox, key: ProviderKey): string {
  try {
    return secretBox.open(key.sealedKey, providerKeyAssociatedData(key.userId, key.provider));
  } catch (error) {
    if (!isAppError(error)) throw error;
    throw new ConflictError(
      `Your saved ${key.provider} key failed its integrity check and cannot be used: save it again under Provider keys`,
    );
  }
}
