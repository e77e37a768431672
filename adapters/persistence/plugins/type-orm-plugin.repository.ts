import type { DataSource } from 'typeorm';
import type { PluginManifest } from '../../../core/plugins/domain/manifest';
import type { Plugin } from '../../../core/plugins/domain/plugin';
import type { PluginRepository } from '../../../core/plugins/ports/plugin-repository.port';
import { NotFoundError } from '../../../core/shared/errors';
import { isUuid } from '../../../core/shared/ids';
import { one, rows, uniquely } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  name: string;
  version: string;
  manifest: PluginManifest;
  source: string;
  published: boolean;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toPlugin = (r: Row): Plugin => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  version: r.version,
  manifest: r.manifest,
  source: r.source,
  published: r.published,
  publishedAt: r.published_at ? new Date(r.published_at) : null,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class TypeOrmPluginRepository implements PluginRepository {
  constructor(private readonly db: DataSource) {}

  async create(p: { ownerId: string; manifest: PluginManifest; source: string }): Promise<Plugin> {
    const row = await uniquely(
      () => one<Row>(this.db, `INSERT INTO plugins (owner_id, name, version, manifest, source) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING *`, [p.ownerId, p.manifest.name, p.manifest.version, JSON.stringify(p.manifest), p.source]),
      () => `You already have a plugin named ${p.manifest.name}`,
    );
    return toPlugin(row!);
  }

  async findById(id: string): Promise<Plugin | null> {
    if (!isUuid(id)) return null;
    const row = await one<Row>(this.db, `SELECT * FROM plugins WHERE id = $1`, [id]);
    return row && toPlugin(row);
  }

  async listVisible(viewerId: string, offset: number, limit: number): Promise<Plugin[]> {
    const found = await rows<Row>(this.db, `SELECT * FROM plugins WHERE owner_id = $1 OR published ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [viewerId, limit, offset]);
    return found.map(toPlugin);
  }

  async publish(id: string): Promise<Plugin> {
    const row = await one<Row>(this.db, `UPDATE plugins SET published = true, published_at = COALESCE(published_at, now()), updated_at = now() WHERE id = $1 RETURNING *`, [id]);
    if (!row) throw new NotFoundError('Plugin');
    return toPlugin(row);
  }

  async saveImported(p: { ownerId: string; key: string; manifest: PluginManifest; source: string }): Promise<Plugin> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO plugins (owner_id, name, version, manifest, source) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (owner_id, name) DO UPDATE SET version = EXCLUDED.version, manifest = EXCLUDED.manifest, source = EXCLUDED.source, updated_at = now()
       RETURNING *`,
      [p.ownerId, p.key, p.manifest.version, JSON.stringify(p.manifest), p.source],
    );
    return toPlugin(row!);
  }
}
