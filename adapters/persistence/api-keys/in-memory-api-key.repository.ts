import { randomUUID } from 'node:crypto';
import type { ApiKey } from '../../../core/api-keys/domain/api-key';
import type { ApiKeyRepository, ApiKeyUsage, NewApiKey } from '../../../core/api-keys/ports/api-key-repository.port';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import { NotFoundError } from '../../../core/shared/errors';
import type { OwnerLimit } from '../../../core/shared/owner-limit';

/** API keys in a map, for unit tests; `hashes` shows what a store would hold. */
export class InMemoryApiKeyRepository implements ApiKeyRepository {
  readonly keys = new Map<string, ApiKey & { keyHash: string }>();
  private sequence = 0;

  constructor(private readonly applications?: ApplicationRepository) {}

  async create(k: NewApiKey, limit?: OwnerLimit | null): Promise<ApiKey> {
    if (k.applicationId) {
      const app = await this.applications?.findById(k.applicationId);
      if (!app || app.ownerId !== k.ownerId) throw new NotFoundError('Application');
    }
    // Counted and stored with no await in between: atomic on the one thread.
    if (limit && this.activeOf(k.ownerId) >= limit.max) throw limit.exceeded();
    // Creation times are strictly increasing so "newest first" is stable within one millisecond.
    const stored = {
      id: randomUUID(),
      ...k,
      requestCount: 0,
      lastUsedAt: null,
      revokedAt: null,
      createdAt: new Date(Date.now() + this.sequence++),
    };
    this.keys.set(stored.id, stored);
    return strip(stored);
  }

  async findById(id: string) {
    const k = this.keys.get(id);
    return k ? strip(k) : null;
  }

  async findByHash(keyHash: string) {
    const k = [...this.keys.values()].find((x) => x.keyHash === keyHash);
    return k ? strip(k) : null;
  }

  async listByOwner(ownerId: string, offset: number, limit: number) {
    return [...this.keys.values()]
      .filter((k) => k.ownerId === ownerId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(offset, offset + limit)
      .map(strip);
  }

  async countActiveByOwner(ownerId: string) {
    return this.activeOf(ownerId);
  }

  private activeOf(ownerId: string): number {
    return [...this.keys.values()].filter((k) => k.ownerId === ownerId && !k.revokedAt).length;
  }

  async revoke(id: string, at: Date) {
    const k = this.keys.get(id);
    if (!k) return null;
    k.revokedAt ??= at;
    return strip(k);
  }

  async delete(id: string) {
    this.keys.delete(id);
  }

  async addUsage(usage: ApiKeyUsage[]) {
    for (const u of usage) {
      const k = this.keys.get(u.id);
      if (!k) continue;
      k.requestCount += u.count;
      if (!k.lastUsedAt || u.lastUsedAt > k.lastUsedAt) k.lastUsedAt = u.lastUsedAt;
    }
  }
}

function strip(k: ApiKey & { keyHash: string }): ApiKey {
  const { keyHash: _hash, ...key } = k;
  return structuredClone(key);
}
