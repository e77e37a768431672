/**
 * Keys (and connections) that answered 429, until their `Retry-After` passes (docs/connections.md,
 * "Resilience"): while one cools down, balancing takes it last instead of first. Kept by the same
 * digests as the breakers (never the key), per model, in this process, bounded to `maxEntries`.
 */
export class RateLimitCooldowns {
  private readonly until = new Map<string, number>();

  constructor(private readonly maxEntries = 10_000) {}

  /** How many entries are kept (expired ones included until they are next looked at): 0 means nothing cools down. */
  get size(): number {
    return this.until.size;
  }

  /** `key` answered 429 at `now`: it cools down for `ms`. */
  coolDown(key: string, now: number, ms: number): void {
    if (!this.until.has(key) && this.until.size >= this.maxEntries) this.until.delete(this.until.keys().next().value!);
    this.until.set(key, now + Math.max(0, ms));
  }

  isCooling(key: string, now: number): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.until.delete(key);
    return false;
  }

  /** A key that answered: it no longer cools down. */
  clear(key: string): void {
    this.until.delete(key);
  }
}
