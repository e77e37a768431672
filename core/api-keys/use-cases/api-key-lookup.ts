import type { Clock } from '../../shared/clock.port';
import type { ApiKey } from '../domain/api-key';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';

/** How long a found key is trusted without asking the store again: the bound on a revocation made elsewhere. */
export const API_KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Finds keys by digest with a short in-memory cache, so the public API does not query the store on
 * every request. A revocation or deletion made through this instance takes effect at once (`forget`);
 * one made through another instance within API_KEY_CACHE_TTL_MS. Unknown digests are never cached.
 */
export class ApiKeyLookup {
  private readonly byHash = new Map<string, { key: ApiKey; expiresAt: number }>();

  constructor(private readonly deps: { keys: ApiKeyRepository; clock: Clock; ttlMs?: number }) {}

  async find(keyHash: string): Promise<ApiKey | null> {
    const now = this.deps.clock.now().getTime();
    const cached = this.byHash.get(keyHash);
    if (cached && cached.expiresAt > now) return cached.key;
    this.byHash.delete(keyHash);
    const key = await this.deps.keys.findByHash(keyHash);
    if (key) {
      if (this.byHash.size >= MAX_ENTRIES) this.byHash.delete(this.byHash.keys().next().value!);
      this.byHash.set(keyHash, { key, expiresAt: now + (this.deps.ttlMs ?? API_KEY_CACHE_TTL_MS) });
    }
    return key;
  }

  /** Drops a key from the cache after it was revoked or deleted. */
  forget(id: string): void {
    for (const [hash, entry] of this.byHash) if (entry.key.id === id) this.byHash.delete(hash);
  }
}
