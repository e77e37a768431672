import type { OwnerLimit } from '../../shared/owner-limit';
import type { ApiKey } from '../domain/api-key';

export interface NewApiKey {
  ownerId: string;
  applicationId: string | null;
  name: string;
  keyHash: string;
  keyPrefix: string;
  keyHint: string;
  rateLimit: number;
}

/** Requests counted in memory since the last flush, added to the stored totals in one write. */
export interface ApiKeyUsage {
  id: string;
  count: number;
  lastUsedAt: Date;
}

/** API keys, stored by the digest of the raw key. */
export interface ApiKeyRepository {
  /**
   * Throws NotFoundError('Application') when `applicationId` is set and is not an application of the owner.
   * With `limit`, the owner's active (not revoked) keys are counted and the new one stored in one step.
   */
  create(key: NewApiKey, limit?: OwnerLimit | null): Promise<ApiKey>;
  findById(id: string): Promise<ApiKey | null>;
  findByHash(keyHash: string): Promise<ApiKey | null>;
  /** The owner's keys, newest first. */
  /** `ownerId`'s unscoped keys and those of the applications they see (theirs and their teams'; `teamId` narrows). */
  listByOwner(ownerId: string, offset: number, limit: number, teamId?: string | null): Promise<ApiKey[]>;
  /** Keys not revoked, for the plan's API-key limit. */
  countActiveByOwner(ownerId: string): Promise<number>;
  /** Sets `revokedAt` unless already set; null when the key does not exist. */
  revoke(id: string, at: Date): Promise<ApiKey | null>;
  delete(id: string): Promise<void>;
  /** Adds counts and moves `lastUsedAt` forward (never back); keys deleted meanwhile are skipped. */
  addUsage(usage: ApiKeyUsage[]): Promise<void>;
}
