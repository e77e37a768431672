import type { ProviderId } from '../../ai/domain/provider-id';
import type { ProviderKey } from '../domain/provider-key';

export interface NewProviderKey {
  userId: string;
  provider: ProviderId;
  sealedKey: string;
  keyHint: string;
}

/** Users' own provider keys, one per user and provider; stored sealed, never in the clear. */
export interface ProviderKeyRepository {
  /** Stores the key, replacing any earlier one (active again, usage and validation dates cleared). */
  save(key: NewProviderKey, now: Date): Promise<ProviderKey>;
  find(userId: string, provider: ProviderId): Promise<ProviderKey | null>;
  /** The user's keys in provider order. */
  listByUser(userId: string): Promise<ProviderKey[]>;
  /** False when there was no key to delete. */
  delete(userId: string, provider: ProviderId): Promise<boolean>;
  markValidated(userId: string, provider: ProviderId, at: Date): Promise<void>;
  markUsed(userId: string, provider: ProviderId, at: Date): Promise<void>;
}
