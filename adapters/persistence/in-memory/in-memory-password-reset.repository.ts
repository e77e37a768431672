import type { PasswordResetRepository } from '../../../core/auth/ports/password-reset-repository.port';

export class InMemoryPasswordResetRepository implements PasswordResetRepository {
  readonly tokens = new Map<string, { userId: string; expiresAt: Date; usedAt: Date | null }>();

  async create(r: { tokenHash: string; userId: string; expiresAt: Date }) {
    this.tokens.set(r.tokenHash, { userId: r.userId, expiresAt: r.expiresAt, usedAt: null });
  }

  async consume(tokenHash: string, now: Date) {
    const t = this.tokens.get(tokenHash);
    if (!t || t.usedAt || t.expiresAt <= now) return null;
    t.usedAt = now;
    return t.userId;
  }

  async invalidateAllForUser(userId: string, now: Date) {
    for (const t of this.tokens.values()) if (t.userId === userId && !t.usedAt) t.usedAt = now;
  }
}
