import type { DataSource } from 'typeorm';
import type { Upload } from '../../../core/uploads/domain/upload';
import type { NewUpload, UploadRepository } from '../../../core/uploads/ports/upload-repository.port';
import { affected, one, rows } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  file_name: string;
  mime_type: string;
  kind: Upload['kind'];
  size_bytes: number;
  storage_key: string;
  created_at: Date;
}

const toUpload = (r: Row): Upload => ({
  id: r.id,
  ownerId: r.owner_id,
  fileName: r.file_name,
  mimeType: r.mime_type,
  kind: r.kind,
  sizeBytes: Number(r.size_bytes),
  storageKey: r.storage_key,
  createdAt: new Date(r.created_at),
});

export class TypeOrmUploadRepository implements UploadRepository {
  constructor(private readonly db: DataSource) {}

  async create(u: NewUpload): Promise<Upload> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO uploads (owner_id, file_name, mime_type, kind, size_bytes, storage_key)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [u.ownerId, u.fileName, u.mimeType, u.kind, u.sizeBytes, u.storageKey],
    );
    return toUpload(row!);
  }

  async findById(id: string): Promise<Upload | null> {
    const row = await one<Row>(this.db, `SELECT * FROM uploads WHERE id = $1`, [id]);
    return row && toUpload(row);
  }

  async listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: Upload[]; total: number }> {
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT * FROM uploads WHERE owner_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [ownerId, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM uploads WHERE owner_id = $1`, [ownerId]),
    ]);
    return { items: items.map(toUpload), total: count?.n ?? 0 };
  }

  async storageKeysByOwner(ownerId: string): Promise<string[]> {
    return (await rows<{ storage_key: string }>(this.db, `SELECT storage_key FROM uploads WHERE owner_id = $1`, [ownerId])).map((r) => r.storage_key);
  }

  async delete(id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM uploads WHERE id = $1`, [id])) > 0;
  }
}
