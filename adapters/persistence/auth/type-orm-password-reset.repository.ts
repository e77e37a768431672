import type { DataSource } from 'typeorm';
import type { PasswordResetRepository } from '../../../core/auth/ports/password-reset-repository.port';
import { one } from '../sql';

export class TypeOrmPasswordResetRepository implements PasswordResetRepository {
  constructor(private readonly db: DataSource) {}

  async create(r: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
    await this.db.query(`INSERT INTO password_reset_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
      r.tokenHash, r.userId, r.expiresAt,
    ]);
  }

  async consume(tokenHash: string, now: Date): Promise<string | null> {
    const row = await one<{ user_id: string }>(
      this.db,
      `UPDATE password_reset_tokens SET used_at = $2
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
      [tokenHash, now],
    );
    return row?.user_id ?? null;
  }

  async invalidateAllForUser(userId: string, now: Date): Promise<void> {
    await this.db.query(`UPDATE password_reset_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, [userId, now]);
  }
}
