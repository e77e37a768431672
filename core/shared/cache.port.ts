/**
 * A read-through cache for what every request reads and rarely changes (users, applications, default
 * configs, plans). Keys are grouped in regions (the part before the first `:`); writers invalidate a
 * key or a whole region. In-process by default; with Redis, invalidations reach every instance.
 * Never holds secrets: callers cache facts (a key exists), not the key.
 */
export interface Cache {
  /**
   * The cached value for `key`, else `load()`'s answer, kept for the cache's time to live unless
   * `keep` says otherwise (e.g. not caching misses that anyone can provoke).
   */
  getOrLoad<T>(key: string, load: () => Promise<T>, options?: { keep?: (value: T) => boolean }): Promise<T>;
  /** Forgets the keys, here and on every other instance. */
  invalidate(...keys: string[]): Promise<void>;
  /** Forgets every key of the region (`region:…`), here and on every other instance. */
  invalidateRegion(region: string): Promise<void>;
  close?(): Promise<void>;
}

/** A cache that keeps nothing: every read loads. */
export const noCache: Cache = {
  getOrLoad: (_key, load) => load(),
  invalidate: async () => undefined,
  invalidateRegion: async () => undefined,
};
