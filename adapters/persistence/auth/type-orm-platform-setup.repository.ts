import type { DataSource } from 'typeorm';
import type { PlatformSetupRepository } from '../../../core/auth/ports/platform-setup-repository.port';
import { affected, one } from '../sql';

/** The setup link's digest in `platform_setup` (one row at most). */
export class TypeOrmPlatformSetupRepository implements PlatformSetupRepository {
  constructor(private readonly db: DataSource) {}

  async hasAdmin(adminEmails: readonly string[]): Promise<boolean> {
    const row = await one<{ found: boolean }>(
      this.db,
      `SELECT EXISTS (SELECT 1 FROM users WHERE role = 'admin' OR email = ANY($1::text[])) AS found`,
      [[...adminEmails]],
    );
    return row?.found === true;
  }

  async replace(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO platform_setup (id, token_hash, expires_at) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at,
         used_at = NULL, used_by = NULL, created_at = now()`,
      [tokenHash, expiresAt],
    );
  }

  async consume(tokenHash: string, now: Date): Promise<boolean> {
    return (await affected(this.db, `UPDATE platform_setup SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`, [tokenHash, now])) === 1;
  }

  async release(tokenHash: string): Promise<void> {
    await this.db.query(`UPDATE platform_setup SET used_at = NULL WHERE token_hash = $1 AND used_by IS NULL`, [tokenHash]);
  }

  async completed(tokenHash: string, userId: string): Promise<void> {
    await this.db.query(`UPDATE platform_setup SET used_by = $2 WHERE token_hash = $1`, [tokenHash, userId]);
  }
}
