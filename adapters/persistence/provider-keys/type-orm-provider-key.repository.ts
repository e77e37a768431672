import type { DataSource } from 'typeorm';
import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { ProviderKey } from '../../../core/provider-keys/domain/provider-key';
import type { NewProviderKey, ProviderKeyRepository } from '../../../core/provider-keys/ports/provider-key-repository.port';
import { affected, one, rows } from '../sql';

interface Row {
  user_id: string;
  provider: ProviderId;
  sealed_key: string;
  key_hint: string;
  is_active: boolean;
  last_used_at: Date | null;
  last_validated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const date = (d: Date | null): Date | null => (d === null ? null : new Date(d));

const toKey = (r: Row): ProviderKey => ({
  userId: r.user_id,
  provider: r.provider,
  sealedKey: r.sealed_key,
  keyHint: r.key_hint,
  isActive: r.is_active,
  lastUsedAt: date(r.last_used_at),
  lastValidatedAt: date(r.last_validated_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** Provider keys in `provider_keys`, one row per user and provider, the key only ever sealed. */
export class TypeOrmProviderKeyRepository implements ProviderKeyRepository {
  constructor(private readonly db: DataSource) {}

  async save(key: NewProviderKey, now: Date): Promise<ProviderKey> {
    // One statement: a concurrent save of the same provider ends with one whole row, never a mix.
    const row = await one<Row>(
      this.db,
      `INSERT INTO provider_keys (user_id, provider, sealed_key, key_hint, is_active, created_at, updated_at)
       VALUES ($1, $2, $3, $4, true, $5, $5)
       ON CONFLICT (user_id, provider) DO UPDATE SET
         sealed_key = EXCLUDED.sealed_key, key_hint = EXCLUDED.key_hint, is_active = true,
         last_used_at = NULL, last_validated_at = NULL, updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [key.userId, key.provider, key.sealedKey, key.keyHint, now],
    );
    return toKey(row!);
  }

  async find(userId: string, provider: ProviderId): Promise<ProviderKey | null> {
    const row = await one<Row>(this.db, `SELECT * FROM provider_keys WHERE user_id = $1 AND provider = $2`, [userId, provider]);
    return row && toKey(row);
  }

  async listByUser(userId: string): Promise<ProviderKey[]> {
    return (await rows<Row>(this.db, `SELECT * FROM provider_keys WHERE user_id = $1 ORDER BY provider`, [userId])).map(toKey);
  }

  async delete(userId: string, provider: ProviderId): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM provider_keys WHERE user_id = $1 AND provider = $2`, [userId, provider])) > 0;
  }

  async markValidated(userId: string, provider: ProviderId, at: Date): Promise<void> {
    await this.db.query(`UPDATE provider_keys SET last_validated_at = $3 WHERE user_id = $1 AND provider = $2`, [userId, provider, at]);
  }

  async markUsed(userId: string, provider: ProviderId, at: Date): Promise<void> {
    // GREATEST: concurrent chats finishing out of order never move the date backwards.
    await this.db.query(
      `UPDATE provider_keys SET last_used_at = GREATEST(COALESCE(last_used_at, $3), $3) WHERE user_id = $1 AND provider = $2`,
      [userId, provider, at],
    );
  }
}
