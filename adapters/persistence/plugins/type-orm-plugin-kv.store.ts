import type { DataSource } from 'typeorm';
import { KV_LIMITS, type KvQuery, type PluginKvStore } from '../../../core/plugins/ports/plugin-kv-store.port';
import { ConflictError, ValidationError } from '../../../core/shared/errors';
import { one, rows } from '../sql';

const LIVE = `(expires_at IS NULL OR expires_at > now())`;
const FIELD = /^[A-Za-z0-9_$-]{1,64}$/;

/**
 * Plugin KV on PostgreSQL/PGlite JSONB, keyed by (installation, key). `find`'s `where` is a containment
 * test answered by the GIN index; expired keys read as absent and are removed when written over.
 */
export class TypeOrmPluginKvStore implements PluginKvStore {
  constructor(private readonly db: DataSource) {}

  async set(installationId: string, key: string, value: unknown, options: { ttlSeconds?: number; maxKeys: number }): Promise<void> {
    const json = JSON.stringify(value);
    const ttl = options.ttlSeconds ?? null;
    // Writing over a live key never hits the quota: one statement, no lock.
    const updated = await one<{ key: string }>(
      this.db,
      `UPDATE plugin_kv SET value = $3::jsonb, expires_at = CASE WHEN $4::int IS NULL THEN NULL ELSE now() + make_interval(secs => $4::int) END, updated_at = now()
       WHERE installation_id = $1 AND key = $2 AND ${LIVE} RETURNING key`,
      [installationId, key, json, ttl],
    );
    if (updated) return;
    await this.db.transaction(async (tx) => {
      // New keys of one installation are counted one at a time, so the quota holds under concurrency.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`plugin-kv:${installationId}`]);
      await tx.query(`DELETE FROM plugin_kv WHERE installation_id = $1 AND expires_at <= now()`, [installationId]);
      const held = (await one<{ n: number }>(tx, `SELECT count(*)::int AS n FROM plugin_kv WHERE installation_id = $1 AND key <> $2`, [installationId, key]))?.n ?? 0;
      const exists = await one<{ key: string }>(tx, `SELECT key FROM plugin_kv WHERE installation_id = $1 AND key = $2`, [installationId, key]);
      if (!exists && held >= options.maxKeys) throw new ConflictError(`KV quota reached: an installation holds at most ${options.maxKeys} keys`);
      await tx.query(
        `INSERT INTO plugin_kv (installation_id, key, value, expires_at) VALUES ($1, $2, $3::jsonb, CASE WHEN $4::int IS NULL THEN NULL ELSE now() + make_interval(secs => $4::int) END)
         ON CONFLICT (installation_id, key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at, updated_at = now()`,
        [installationId, key, json, ttl],
      );
    });
  }

  async get(installationId: string, key: string): Promise<unknown> {
    const row = await one<{ value: unknown }>(this.db, `SELECT value FROM plugin_kv WHERE installation_id = $1 AND key = $2 AND ${LIVE}`, [installationId, key]);
    return row ? row.value : null;
  }

  async find(installationId: string, query: KvQuery): Promise<{ key: string; value: unknown }[]> {
    const params: unknown[] = [installationId];
    let where = `installation_id = $1 AND ${LIVE}`;
    if (query.where && Object.keys(query.where).length) {
      params.push(JSON.stringify(query.where));
      where += ` AND value @> $${params.length}::jsonb`;
    }
    let order = 'key';
    if (query.sort) {
      const [field, direction] = Object.entries(query.sort)[0]!;
      if (!FIELD.test(field)) throw new ValidationError('find(query): sort names a top-level field (letters, digits, _ $ -)');
      params.push(field);
      order = `value -> $${params.length} ${direction === -1 ? 'DESC' : 'ASC'} NULLS LAST, key`;
    }
    params.push(Math.min(query.limit ?? 20, KV_LIMITS.maxFindLimit));
    return rows<{ key: string; value: unknown }>(this.db, `SELECT key, value FROM plugin_kv WHERE ${where} ORDER BY ${order} LIMIT $${params.length}`, params);
  }

  async keys(installationId: string, prefix: string): Promise<string[]> {
    const found = await rows<{ key: string }>(
      this.db,
      `SELECT key FROM plugin_kv WHERE installation_id = $1 AND starts_with(key, $2) AND ${LIVE} ORDER BY key LIMIT 1000`,
      [installationId, prefix],
    );
    return found.map((r) => r.key);
  }

  async count(installationId: string, where?: Record<string, unknown>): Promise<number> {
    const filtered = where && Object.keys(where).length;
    const row = await one<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM plugin_kv WHERE installation_id = $1 AND ${LIVE}${filtered ? ' AND value @> $2::jsonb' : ''}`,
      filtered ? [installationId, JSON.stringify(where)] : [installationId],
    );
    return row?.n ?? 0;
  }

  async delete(installationId: string, key: string): Promise<boolean> {
    const row = await one<{ key: string }>(this.db, `DELETE FROM plugin_kv WHERE installation_id = $1 AND key = $2 RETURNING key`, [installationId, key]);
    return !!row;
  }
}
