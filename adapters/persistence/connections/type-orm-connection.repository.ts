import type { DataSource } from 'typeorm';
import type { Connection, ConnectionKind } from '../../../core/connections/domain/connection';
import type { ConnectionRepository, NewConnection } from '../../../core/connections/ports/connection-repository.port';
import { affected, one, rows, uniquely } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  name: string;
  kind: ConnectionKind;
  base_url: string;
  sealed_key: string | null;
  key_hint: string | null;
  sealed_headers: Record<string, string>;
  models: string[];
  models_discovered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toConnection = (r: Row): Connection => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  kind: r.kind,
  baseUrl: r.base_url,
  sealedKey: r.sealed_key,
  keyHint: r.key_hint,
  sealedHeaders: r.sealed_headers ?? {},
  models: r.models ?? [],
  modelsDiscoveredAt: r.models_discovered_at === null ? null : new Date(r.models_discovered_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** Connections in `connections`; key and header values only ever sealed. */
export class TypeOrmConnectionRepository implements ConnectionRepository {
  constructor(private readonly db: DataSource) {}

  async save(c: NewConnection, now: Date): Promise<Connection> {
    const row = await uniquely(
      () =>
        one<Row>(
          this.db,
          `INSERT INTO connections (id, owner_id, name, kind, base_url, sealed_key, key_hint, sealed_headers, models, models_discovered_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $11)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, base_url = EXCLUDED.base_url,
             sealed_key = EXCLUDED.sealed_key, key_hint = EXCLUDED.key_hint, sealed_headers = EXCLUDED.sealed_headers,
             models = EXCLUDED.models, models_discovered_at = EXCLUDED.models_discovered_at, updated_at = EXCLUDED.updated_at
           WHERE connections.owner_id = EXCLUDED.owner_id
           RETURNING *`,
          [c.id, c.ownerId, c.name, c.kind, c.baseUrl, c.sealedKey, c.keyHint, JSON.stringify(c.sealedHeaders), JSON.stringify(c.models), c.modelsDiscoveredAt, now],
        ),
      () => `You already have a connection named ${c.name}`,
    );
    return toConnection(row!);
  }

  async find(ownerId: string, id: string): Promise<Connection | null> {
    const row = await one<Row>(this.db, `SELECT * FROM connections WHERE owner_id = $1 AND id = $2`, [ownerId, id]);
    return row && toConnection(row);
  }

  async findByName(ownerId: string, name: string): Promise<Connection | null> {
    const row = await one<Row>(this.db, `SELECT * FROM connections WHERE owner_id = $1 AND name = $2`, [ownerId, name]);
    return row && toConnection(row);
  }

  async list(ownerId: string): Promise<Connection[]> {
    return (await rows<Row>(this.db, `SELECT * FROM connections WHERE owner_id = $1 ORDER BY name`, [ownerId])).map(toConnection);
  }

  async count(ownerId: string): Promise<number> {
    return (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM connections WHERE owner_id = $1`, [ownerId]))?.n ?? 0;
  }

  async delete(ownerId: string, id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM connections WHERE owner_id = $1 AND id = $2`, [ownerId, id])) > 0;
  }
}
