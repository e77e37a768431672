import type { RefreshTokenRecord, RefreshTokenRepository } from '../../../core/auth/ports/refresh-token-repository.port';

export class InMemoryRefreshTokenRepository implements RefreshTokenRepository {
  readonly tokens = new Map<string, RefreshTokenRecord>();

  async create(r: { id: string; userId: string; familyId: string; expiresAt: Date }) {
    this.tokens.set(r.id, { ...r, usedAt: null, revokedAt: null });
  }

  async findById(id: string) {
    const t = this.tokens.get(id);
    return t ? { ...t } : null;
  }

  async markUsed(id: string, at: Date) {
    const t = this.tokens.get(id);
    if (!t || t.usedAt || t.revokedAt) return false;
    t.usedAt = at;
    return true;
  }

  async revokeFamily(familyId: string, at: Date) {
    for (const t of this.tokens.values()) if (t.familyId === familyId && !t.revokedAt) t.revokedAt = at;
  }

  async revokeAllForUser(userId: string, at: Date) {
    for (const t of this.tokens.values()) if (t.userId === userId && !t.revokedAt) t.revokedAt = at;
  }
}
