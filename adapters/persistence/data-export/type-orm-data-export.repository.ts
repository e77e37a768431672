import type { DataSource } from 'typeorm';
import type { DataExport, ExportFormat, ExportResources, ExportStatus } from '../../../core/data-export/domain/data-export';
import type { DataExportRepository } from '../../../core/data-export/ports/data-export.ports';
import { one, rows } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  resources: ExportResources;
  format: ExportFormat;
  status: ExportStatus;
  file_name: string | null;
  byte_size: string | number | null;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
  expires_at: Date;
}

const toExport = (r: Row): DataExport => ({
  id: r.id,
  ownerId: r.owner_id,
  resources: r.resources,
  format: r.format,
  status: r.status,
  fileName: r.file_name,
  byteSize: r.byte_size === null ? null : Number(r.byte_size),
  error: r.error,
  createdAt: new Date(r.created_at),
  completedAt: r.completed_at && new Date(r.completed_at),
  expiresAt: new Date(r.expires_at),
});

export class TypeOrmDataExportRepository implements DataExportRepository {
  constructor(private readonly db: DataSource) {}

  async create(request: { ownerId: string; resources: ExportResources; format: ExportFormat; createdAt: Date; expiresAt: Date; staleBefore: Date }): Promise<DataExport | null> {
    // One statement: two requests at once cannot both pass the "none in progress" check unseen for long,
    // and a lost job's export stops blocking once stale.
    const row = await one<Row>(
      this.db,
      `INSERT INTO data_exports (owner_id, resources, format, created_at, expires_at)
       SELECT $1, $2, $3, $6, $4
        WHERE NOT EXISTS (SELECT 1 FROM data_exports WHERE owner_id = $1 AND status IN ('pending', 'running') AND created_at > $5)
       RETURNING *`,
      [request.ownerId, request.resources, request.format, request.expiresAt, request.staleBefore, request.createdAt],
    );
    return row && toExport(row);
  }

  async findById(id: string): Promise<DataExport | null> {
    const row = await one<Row>(this.db, `SELECT * FROM data_exports WHERE id = $1`, [id]);
    return row && toExport(row);
  }

  async listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: DataExport[]; total: number }> {
    // Both read data_exports_owner_idx (owner_id, created_at DESC); an owner has few exports (they expire in a day).
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT * FROM data_exports WHERE owner_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, [ownerId, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM data_exports WHERE owner_id = $1`, [ownerId]),
    ]);
    return { items: items.map(toExport), total: count?.n ?? 0 };
  }

  async claim(id: string): Promise<DataExport | null> {
    const row = await one<Row>(this.db, `UPDATE data_exports SET status = 'running' WHERE id = $1 AND status = 'pending' RETURNING *`, [id]);
    return row && toExport(row);
  }

  async complete(id: string, result: { fileName: string; byteSize: number; at: Date }): Promise<void> {
    await rows(this.db, `UPDATE data_exports SET status = 'ready', file_name = $2, byte_size = $3, completed_at = $4 WHERE id = $1 RETURNING id`, [
      id,
      result.fileName,
      result.byteSize,
      result.at,
    ]);
  }

  async fail(id: string, error: string, at: Date): Promise<void> {
    await rows(this.db, `UPDATE data_exports SET status = 'failed', error = $2, completed_at = $3 WHERE id = $1 RETURNING id`, [id, error, at]);
  }

  async removeExpired(now: Date): Promise<string[]> {
    const removed = await rows<{ file_name: string | null }>(this.db, `DELETE FROM data_exports WHERE expires_at <= $1 RETURNING file_name`, [now]);
    return removed.map((r) => r.file_name).filter((n): n is string => n !== null);
  }

  async existing(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const found = await rows<{ id: string }>(this.db, `SELECT id FROM data_exports WHERE id = ANY($1::uuid[])`, [ids]);
    return new Set(found.map((r) => r.id));
  }
}
