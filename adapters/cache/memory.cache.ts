import type { Cache } from '../../core/shared/cache.port';

interface Entry {
  value: unknown;
  expires: number;
  /** The invalidation tick when its load started. */
  startedAt: number;
}

export interface MemoryCacheOptions {
  /** How long an entry is trusted without an invalidation (ms); 0 turns caching off. */
  ttlMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

const regionOf = (key: string): string => {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
};

/** Deep-freezes a cached value: it is shared by every request that reads it, so nobody may change it. */
function freeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) freeze(inner);
  }
  return value;
}

/**
 * The in-process cache: entries live for the TTL unless invalidated first. Concurrent misses of one
 * key share one load, and a load that overlaps an invalidation of its key or region is answered but not
 * kept, so a value read before a write can never outlive that write's invalidation.
 */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();
  /** The latest load of each key, shared by the misses that overlap it. */
  private readonly loading = new Map<string, { promise: Promise<unknown>; startedAt: number }>();
  /** Loads in flight per key; an invalidation is only remembered for keys being loaded. */
  private readonly inFlight = new Map<string, number>();
  private readonly keyInvalidatedAt = new Map<string, number>();
  private readonly regionInvalidatedAt = new Map<string, number>();
  /** Advanced by every invalidation: a load that started before one must not be kept. */
  private tick = 0;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: MemoryCacheOptions) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  async getOrLoad<T>(key: string, load: () => Promise<T>, options: { keep?: (value: T) => boolean } = {}): Promise<T> {
    if (this.options.ttlMs <= 0) return load();
    const region = regionOf(key);
    const entry = this.entries.get(key);
    if (entry && entry.expires > this.now() && this.fresh(key, region, entry.startedAt)) return entry.value as T;
    if (entry) this.entries.delete(key);

    const pending = this.loading.get(key);
    if (pending && this.fresh(key, region, pending.startedAt)) return pending.promise as Promise<T>;

    const startedAt = this.tick;
    const promise = load();
    this.loading.set(key, { promise, startedAt });
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    try {
      const value = freeze(await promise);
      const keep = options.keep?.(value) ?? true;
      if (keep && this.fresh(key, region, startedAt)) this.store(key, { value, expires: this.now() + this.options.ttlMs, startedAt });
      return value;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else {
        this.inFlight.delete(key);
        this.keyInvalidatedAt.delete(key);
      }
    }
  }

  async invalidate(...keys: string[]): Promise<void> {
    this.forgetLocally({ keys });
  }

  async invalidateRegion(region: string): Promise<void> {
    this.forgetLocally({ region });
  }

  /** Applies an invalidation to this instance only (the Redis cache calls it for other instances' too). */
  protected forgetLocally(what: { keys?: string[]; region?: string }): void {
    this.tick++;
    for (const key of what.keys ?? []) {
      this.entries.delete(key);
      if (this.inFlight.has(key)) this.keyInvalidatedAt.set(key, this.tick);
    }
    if (what.region !== undefined) this.regionInvalidatedAt.set(what.region, this.tick);
  }

  /** Whether a value loaded from `startedAt` on is still good: no invalidation of its key or region since. */
  private fresh(key: string, region: string, startedAt: number): boolean {
    return startedAt >= (this.keyInvalidatedAt.get(key) ?? 0) && startedAt >= (this.regionInvalidatedAt.get(region) ?? 0);
  }

  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
