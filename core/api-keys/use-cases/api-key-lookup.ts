import type { Cache } from '../../shared/cache.port';
import type { ApiKey } from '../domain/api-key';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';

/**
 * Finds keys by digest through the Cache, so the public API does not query the store on every request.
 * A revocation or deletion (`forget`) invalidates every cached key, here and, with Redis, on every
 * other instance, so it takes effect at once everywhere; a change made behind the platform's back
 * within the cache's time to live. Unknown digests are never cached (anyone can send them).
 */
export class ApiKeyLookup {
  constructor(private readonly deps: { keys: ApiKeyRepository; cache: Cache }) {}

  find(keyHash: string): Promise<ApiKey | null> {
    return this.deps.cache.getOrLoad(`apikey:${keyHash}`, () => this.deps.keys.findByHash(keyHash), { keep: (key) => key !== null });
  }

  /** Drops the cached keys after one was revoked or deleted (revocations are rare; the cache refills). */
  async forget(): Promise<void> {
    await this.deps.cache.invalidateRegion('apikey');
  }
}
