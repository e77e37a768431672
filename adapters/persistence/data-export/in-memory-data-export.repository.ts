import { randomUUID } from 'node:crypto';
import type { DataExport, ExportFormat, ExportResources } from '../../../core/data-export/domain/data-export';
import type { DataExportRepository } from '../../../core/data-export/ports/data-export.ports';

/** The data-export store in memory, with the SQL one's rules (one pending or running export per owner). */
export class InMemoryDataExportRepository implements DataExportRepository {
  readonly exports = new Map<string, DataExport>();

  async create(request: { ownerId: string; resources: ExportResources; format: ExportFormat; createdAt: Date; expiresAt: Date; staleBefore: Date }): Promise<DataExport | null> {
    const busy = [...this.exports.values()].some(
      (e) => e.ownerId === request.ownerId && (e.status === 'pending' || e.status === 'running') && e.createdAt > request.staleBefore,
    );
    if (busy) return null;
    const created: DataExport = {
      id: randomUUID(),
      ownerId: request.ownerId,
      resources: request.resources,
      format: request.format,
      status: 'pending',
      fileName: null,
      byteSize: null,
      error: null,
      createdAt: new Date(request.createdAt),
      completedAt: null,
      expiresAt: new Date(request.expiresAt),
    };
    this.exports.set(created.id, created);
    return structuredClone(created);
  }

  async findById(id: string): Promise<DataExport | null> {
    const found = this.exports.get(id);
    return found ? structuredClone(found) : null;
  }

  async listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: DataExport[]; total: number }> {
    const mine = [...this.exports.values()]
      .filter((e) => e.ownerId === ownerId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { items: mine.slice(offset, offset + limit).map((e) => structuredClone(e)), total: mine.length };
  }

  async claim(id: string): Promise<DataExport | null> {
    const found = this.exports.get(id);
    if (!found || found.status !== 'pending') return null;
    found.status = 'running';
    return structuredClone(found);
  }

  async complete(id: string, result: { fileName: string; byteSize: number; at: Date }): Promise<void> {
    const found = this.exports.get(id);
    if (found) Object.assign(found, { status: 'ready', fileName: result.fileName, byteSize: result.byteSize, completedAt: new Date(result.at) });
  }

  async fail(id: string, error: string, at: Date): Promise<void> {
    const found = this.exports.get(id);
    if (found) Object.assign(found, { status: 'failed', error, completedAt: new Date(at) });
  }

  async removeExpired(now: Date): Promise<string[]> {
    const names: string[] = [];
    for (const [id, e] of this.exports) {
      if (e.expiresAt > now) continue;
      this.exports.delete(id);
      if (e.fileName) names.push(e.fileName);
    }
    return names;
  }

  async existing(ids: string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.exports.has(id)));
  }
}
