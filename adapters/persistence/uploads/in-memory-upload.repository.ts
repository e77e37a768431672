import { randomUUID } from 'node:crypto';
import type { Upload } from '../../../core/uploads/domain/upload';
import type { NewUpload, UploadRepository } from '../../../core/uploads/ports/upload-repository.port';

export class InMemoryUploadRepository implements UploadRepository {
  readonly uploads = new Map<string, Upload>();
  private clock = 0;

  async create(u: NewUpload): Promise<Upload> {
    // Strictly increasing times keep "newest first" well defined within one millisecond.
    const upload: Upload = { ...u, id: randomUUID(), createdAt: new Date(Date.now() + this.clock++) };
    this.uploads.set(upload.id, upload);
    return structuredClone(upload);
  }

  async findById(id: string): Promise<Upload | null> {
    const u = this.uploads.get(id);
    return u ? structuredClone(u) : null;
  }

  async listByOwner(ownerId: string, offset: number, limit: number) {
    const mine = [...this.uploads.values()].filter((u) => u.ownerId === ownerId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { items: mine.slice(offset, offset + limit).map((u) => structuredClone(u)), total: mine.length };
  }

  async storageKeysByOwner(ownerId: string): Promise<string[]> {
    return [...this.uploads.values()].filter((u) => u.ownerId === ownerId).map((u) => u.storageKey);
  }

  async delete(id: string): Promise<boolean> {
    return this.uploads.delete(id);
  }
}
