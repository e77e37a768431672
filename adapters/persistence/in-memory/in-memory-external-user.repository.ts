import type { ExternalUserRepository } from '../../../core/auth/ports/external-user-repository.port';

/** External users' accounts in memory (the in-memory platform). */
export class InMemoryExternalUserRepository implements ExternalUserRepository {
  private readonly byKey = new Map<string, string>();

  async find(issuer: string, externalId: string): Promise<string | null> {
    return this.byKey.get(JSON.stringify([issuer, externalId])) ?? null;
  }

  async link(issuer: string, externalId: string, userId: string): Promise<string> {
    const key = JSON.stringify([issuer, externalId]);
    const existing = this.byKey.get(key);
    if (existing) return existing;
    this.byKey.set(key, userId);
    return userId;
  }
}
