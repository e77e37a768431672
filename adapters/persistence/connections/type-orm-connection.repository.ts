import type { DataSource } from 'typeorm';
import type { Connection, ConnectionKind } from '../../../core/connections/domain/connection';
import type { ConnectionRepository, ConnectionScope, ConnectionUser, NewConnection } from '../../../core/connections/ports/connection-repository.port';
import { affected, one, rows, uniquely } from '../sql';

interface Row {
  id: string;
  owner_id: string | null;
  team_id: string | null;
  added_by: string | null;
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
  teamId: r.team_id ?? null,
  addedBy: r.added_by ?? null,
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
          `INSERT INTO connections (id, owner_id, team_id, added_by, name, kind, base_url, sealed_key, key_hint, sealed_headers, models, models_discovered_at, created_at, updated_at)
           VALUES ($1, $2, $12, $13, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $11)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, base_url = EXCLUDED.base_url,
             sealed_key = EXCLUDED.sealed_key, key_hint = EXCLUDED.key_hint, sealed_headers = EXCLUDED.sealed_headers,
             models = EXCLUDED.models, models_discovered_at = EXCLUDED.models_discovered_at, updated_at = EXCLUDED.updated_at
           WHERE connections.owner_id IS NOT DISTINCT FROM EXCLUDED.owner_id AND connections.team_id IS NOT DISTINCT FROM EXCLUDED.team_id
           RETURNING *`,
          [c.id, c.ownerId, c.name, c.kind, c.baseUrl, c.sealedKey, c.keyHint, JSON.stringify(c.sealedHeaders), JSON.stringify(c.models), c.modelsDiscoveredAt, now, c.teamId, c.addedBy],
        ),
      () => (c.teamId ? `The team already has a connection named ${c.name}` : `You already have a connection named ${c.name}`),
    );
    return toConnection(row!);
  }

  async findById(id: string): Promise<Connection | null> {
    const row = await one<Row>(this.db, `SELECT * FROM connections WHERE id = $1`, [id]);
    return row && toConnection(row);
  }

  async findByName(user: ConnectionUser, name: string): Promise<Connection | null> {
    const row = user.teamId
      ? await one<Row>(
          this.db,
          `SELECT * FROM connections WHERE name = $2 AND (team_id = $3 OR (team_id IS NULL AND owner_id = $1)) ORDER BY team_id NULLS LAST LIMIT 1`,
          [user.ownerId, name, user.teamId],
        )
      : await one<Row>(this.db, `SELECT * FROM connections WHERE owner_id = $1 AND team_id IS NULL AND name = $2`, [user.ownerId, name]);
    return row && toConnection(row);
  }

  async findInScope(scope: ConnectionScope, name: string): Promise<Connection | null> {
    const [where, param] = scopeOf(scope);
    const row = await one<Row>(this.db, `SELECT * FROM connections WHERE ${where} AND name = $2`, [param, name]);
    return row && toConnection(row);
  }

  async list(scope: ConnectionScope): Promise<Connection[]> {
    const [where, param] = scopeOf(scope);
    return (await rows<Row>(this.db, `SELECT * FROM connections WHERE ${where} ORDER BY name`, [param])).map(toConnection);
  }

  async count(scope: ConnectionScope): Promise<number> {
    const [where, param] = scopeOf(scope);
    return (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM connections WHERE ${where}`, [param]))?.n ?? 0;
  }

  async delete(id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM connections WHERE id = $1`, [id])) > 0;
  }
}

/** The condition (with its one parameter, $1) of a scope: a user's personal connections, or a team's. */
const scopeOf = (scope: ConnectionScope): [string, string] => ('teamId' in scope ? ['team_id = $1', scope.teamId] : ['team_id IS NULL AND owner_id = $1', scope.ownerId]);
