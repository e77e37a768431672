import type { DataSource } from 'typeorm';
import type { RefreshTokenRecord, RefreshTokenRepository } from '../../../core/auth/ports/refresh-token-repository.port';
import { affected, one } from '../sql';

interface Row {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

export class TypeOrmRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly db: DataSource) {}

  async create(r: { id: string; userId: string; familyId: string; expiresAt: Date }): Promise<void> {
    await this.db.query(`INSERT INTO refresh_tokens (id, user_id, family_id, expires_at) VALUES ($1, $2, $3, $4)`, [
      r.id, r.userId, r.familyId, r.expiresAt,
    ]);
  }

  async findById(id: string): Promise<RefreshTokenRecord | null> {
    const r = await one<Row>(this.db, `SELECT * FROM refresh_tokens WHERE id = $1`, [id]);
    return r && {
      id: r.id,
      userId: r.user_id,
      familyId: r.family_id,
      expiresAt: new Date(r.expires_at),
      usedAt: r.used_at && new Date(r.used_at),
      revokedAt: r.revoked_at && new Date(r.revoked_at),
    };
  }

  async markUsed(id: string, at: Date): Promise<boolean> {
    // One statement, so two concurrent refreshes with the same token cannot both succeed.
    return (await affected(this.db, `UPDATE refresh_tokens SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL`, [id, at])) === 1;
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    await this.db.query(`UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`, [familyId, at]);
  }

  async revokeAllForUser(userId: string, at: Date): Promise<void> {
    await this.db.query(`UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, [userId, at]);
  }
}
