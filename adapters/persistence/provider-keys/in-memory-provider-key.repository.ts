import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { ProviderKey } from '../../../core/provider-keys/domain/provider-key';
import type { NewProviderKey, ProviderKeyRepository } from '../../../core/provider-keys/ports/provider-key-repository.port';

/** Provider keys in a map, for unit tests of the core. */
export class InMemoryProviderKeyRepository implements ProviderKeyRepository {
  readonly keys = new Map<string, ProviderKey>();

  async save(key: NewProviderKey, now: Date): Promise<ProviderKey> {
    const earlier = this.keys.get(id(key.userId, key.provider));
    const saved: ProviderKey = { ...key, isActive: true, lastUsedAt: null, lastValidatedAt: null, createdAt: earlier?.createdAt ?? now, updatedAt: now };
    this.keys.set(id(key.userId, key.provider), saved);
    return { ...saved };
  }

  async find(userId: string, provider: ProviderId): Promise<ProviderKey | null> {
    const key = this.keys.get(id(userId, provider));
    return key ? { ...key } : null;
  }

  async listByUser(userId: string): Promise<ProviderKey[]> {
    return [...this.keys.values()].filter((k) => k.userId === userId).sort((a, b) => a.provider.localeCompare(b.provider)).map((k) => ({ ...k }));
  }

  async delete(userId: string, provider: ProviderId): Promise<boolean> {
    return this.keys.delete(id(userId, provider));
  }

  async markValidated(userId: string, provider: ProviderId, at: Date): Promise<void> {
    const key = this.keys.get(id(userId, provider));
    if (key) key.lastValidatedAt = at;
  }

  async markUsed(userId: string, provider: ProviderId, at: Date): Promise<void> {
    const key = this.keys.get(id(userId, provider));
    if (key && (!key.lastUsedAt || key.lastUsedAt < at)) key.lastUsedAt = at;
  }
}

const id = (userId: string, provider: ProviderId) => `${userId}:${provider}`;
