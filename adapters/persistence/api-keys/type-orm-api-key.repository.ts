import type { DataSource } from 'typeorm';
import type { ApiKey } from '../../../core/api-keys/domain/api-key';
import type { ApiKeyRepository, ApiKeyUsage, NewApiKey } from '../../../core/api-keys/ports/api-key-repository.port';
import { visibleScopedResources } from '../teams/visibility';
import { NotFoundError } from '../../../core/shared/errors';
import type { OwnerLimit } from '../../../core/shared/owner-limit';
import { affected, insertWithinLimit, one, rows } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  application_id: string | null;
  name: string;
  key_prefix: string;
  key_hint: string;
  rate_limit: number;
  request_count: string | number;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

// The digest stays in the database: it is matched there and never read back.
const COLUMNS = `id, owner_id, application_id, name, key_prefix, key_hint, rate_limit, request_count, last_used_at, revoked_at, created_at`;

const toKey = (r: Row): ApiKey => ({
  id: r.id,
  ownerId: r.owner_id,
  applicationId: r.application_id,
  name: r.name,
  keyPrefix: r.key_prefix,
  keyHint: r.key_hint,
  rateLimit: Number(r.rate_limit),
  requestCount: Number(r.request_count),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
  createdAt: new Date(r.created_at),
});

export class TypeOrmApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: DataSource) {}

  async create(k: NewApiKey, limit?: OwnerLimit | null): Promise<ApiKey> {
    const row = await insertWithinLimit(
      this.db,
      limit,
      { scope: 'api_keys', ownerId: k.ownerId, countSql: `SELECT count(*)::int AS n FROM api_keys WHERE owner_id = $1 AND revoked_at IS NULL` },
      // The scope check and the insert are one statement: an application deleted meanwhile cannot slip in.
      (sql) =>
        one<Row>(
          sql,
          `INSERT INTO api_keys (owner_id, application_id, name, key_hash, key_prefix, key_hint, rate_limit)
           SELECT $1, $2::uuid, $3, $4, $5, $6, $7
           WHERE $2::uuid IS NULL OR EXISTS (SELECT 1 FROM applications WHERE id = $2::uuid AND owner_id = $1)
           RETURNING ${COLUMNS}`,
          [k.ownerId, k.applicationId, k.name, k.keyHash, k.keyPrefix, k.keyHint, k.rateLimit],
        ),
    );
    if (!row) throw new NotFoundError('Application');
    return toKey(row);
  }

  async findById(id: string): Promise<ApiKey | null> {
    const row = await one<Row>(this.db, `SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    return row && toKey(row);
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await one<Row>(this.db, `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash]);
    return row && toKey(row);
  }

  async listByOwner(ownerId: string, offset: number, limit: number, teamId?: string | null): Promise<ApiKey[]> {
    const found = await rows<Row>(
      this.db,
      `SELECT ${COLUMNS} FROM api_keys WHERE ${visibleScopedResources(teamId, '$1', '$4')} ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [ownerId, limit, offset, ...(teamId ? [teamId] : [])],
    );
    return found.map(toKey);
  }

  async countActiveByOwner(ownerId: string): Promise<number> {
    const row = await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM api_keys WHERE owner_id = $1 AND revoked_at IS NULL`, [ownerId]);
    return row?.n ?? 0;
  }

  async revoke(id: string, at: Date): Promise<ApiKey | null> {
    const row = await one<Row>(
      this.db,
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, at.toISOString()],
    );
    return row && toKey(row);
  }

  async delete(id: string): Promise<void> {
    await affected(this.db, `DELETE FROM api_keys WHERE id = $1`, [id]);
  }

  async addUsage(usage: ApiKeyUsage[]): Promise<void> {
    if (usage.length === 0) return;
    const batch = usage.map((u) => ({ id: u.id, n: u.count, at: u.lastUsedAt.toISOString() }));
    await affected(
      this.db,
      `UPDATE api_keys k
          SET request_count = k.request_count + u.n,
              last_used_at = GREATEST(k.last_used_at, u.at)
         FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, n bigint, at timestamptz)
        WHERE k.id = u.id`,
      [JSON.stringify(batch)],
    );
  }
}
