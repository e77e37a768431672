import type { ApiKey } from '../domain/api-key';
import type { ApiKeyRepository, ApiKeyUsage } from '../ports/api-key-repository.port';

/**
 * Counts public-API requests per key in memory and adds them to the store in one write per flush
 * (periodically and on shutdown), so serving a request never writes to the database. Counts are
 * additive, so every instance flushes its own. A failed flush keeps its counts for the next one.
 */
export class ApiKeyUsageTracker {
  private pending = new Map<string, ApiKeyUsage>();
  private flushing: Promise<void> | null = null;

  constructor(private readonly deps: { keys: ApiKeyRepository }) {}

  record(keyId: string, at: Date): void {
    const entry = this.pending.get(keyId);
    if (!entry) this.pending.set(keyId, { id: keyId, count: 1, lastUsedAt: at });
    else {
      entry.count += 1;
      if (at > entry.lastUsedAt) entry.lastUsedAt = at;
    }
  }

  /** The key with this instance's unflushed usage added. */
  withPending(key: ApiKey): ApiKey {
    const entry = this.pending.get(key.id);
    if (!entry) return key;
    const lastUsedAt = key.lastUsedAt && key.lastUsedAt > entry.lastUsedAt ? key.lastUsedAt : entry.lastUsedAt;
    return { ...key, requestCount: key.requestCount + entry.count, lastUsedAt };
  }

  /** Writes what was counted since the last flush; one flush at a time. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.deps.keys
      .addUsage([...batch.values()])
      .catch((error: unknown) => {
        for (const entry of batch.values()) this.merge(entry);
        throw error;
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  private merge(entry: ApiKeyUsage): void {
    const current = this.pending.get(entry.id);
    if (!current) this.pending.set(entry.id, entry);
    else {
      current.count += entry.count;
      if (entry.lastUsedAt > current.lastUsedAt) current.lastUsedAt = entry.lastUsedAt;
    }
  }
}
