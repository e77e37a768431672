import type { DataSource } from 'typeorm';
import type { ExternalUserRepository } from '../../../core/auth/ports/external-user-repository.port';
import { one } from '../sql';

/** `external_users`: one row per (issuer, external id), its account deleted with it. */
export class TypeOrmExternalUserRepository implements ExternalUserRepository {
  constructor(private readonly db: DataSource) {}

  async find(issuer: string, externalId: string): Promise<string | null> {
    const row = await one<{ user_id: string }>(this.db, `SELECT user_id FROM external_users WHERE issuer = $1 AND external_id = $2`, [issuer, externalId]);
    return row?.user_id ?? null;
  }

  async link(issuer: string, externalId: string, userId: string): Promise<string> {
    const inserted = await one<{ user_id: string }>(
      this.db,
      `INSERT INTO external_users (issuer, external_id, user_id) VALUES ($1, $2, $3) ON CONFLICT (issuer, external_id) DO NOTHING RETURNING user_id`,
      [issuer, externalId, userId],
    );
    if (inserted) return inserted.user_id;
    const existing = await this.find(issuer, externalId);
    if (!existing) throw new Error('external user mapping vanished during its creation');
    return existing;
  }
}
