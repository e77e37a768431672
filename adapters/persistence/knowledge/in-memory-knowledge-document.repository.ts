import { randomUUID } from 'node:crypto';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import { ConflictError } from '../../../core/shared/errors';
import type { KnowledgeDocument } from '../../../core/knowledge/domain/knowledge-document';
import type { EmbeddingGroup, KnowledgeDocumentRepository, NewKnowledgeDocument } from '../../../core/knowledge/ports/knowledge-document-repository.port';

/** For unit tests: owners are looked up through the applications it is given. */
export class InMemoryKnowledgeDocumentRepository implements KnowledgeDocumentRepository {
  readonly documents = new Map<string, KnowledgeDocument>();
  private tick = 0;

  constructor(private readonly applications: ApplicationRepository) {}

  async create(d: NewKnowledgeDocument): Promise<KnowledgeDocument> {
    const now = this.now();
    const hash = d.contentHash ?? null;
    if (hash !== null && [...this.documents.values()].some((x) => x.applicationId === d.applicationId && x.contentHash === hash)) {
      throw new ConflictError('This file is already in the knowledge base');
    }
    const document: KnowledgeDocument = {
      ...d, id: randomUUID(), status: 'processing', progress: 0, chunkCount: 0, error: null, attempts: 0, contentHash: hash,
      generation: 0, pendingGeneration: null, pendingChunkSize: null, pendingChunkOverlap: null, createdAt: now, updatedAt: now,
    };
    this.documents.set(document.id, document);
    return structuredClone(document);
  }

  async findById(id: string) {
    const d = this.documents.get(id);
    return d ? structuredClone(d) : null;
  }

  async findWithOwner(id: string) {
    const d = this.documents.get(id);
    const app = d && (await this.applications.findById(d.applicationId));
    return d && app ? { document: structuredClone(d), ownerId: app.ownerId } : null;
  }

  async listByApplication(applicationId: string, offset: number, limit: number) {
    const mine = [...this.documents.values()].filter((d) => d.applicationId === applicationId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { items: mine.slice(offset, offset + limit).map((d) => structuredClone(d)), total: mine.length };
  }

  async readyGroups(applicationId: string): Promise<EmbeddingGroup[]> {
    const groups = new Map<string, EmbeddingGroup>();
    const ready = [...this.documents.values()].filter((d) => d.applicationId === applicationId && d.status === 'ready' && d.chunkCount > 0);
    for (const d of ready.sort((a, b) => a.id.localeCompare(b.id))) {
      const key = `${d.embeddingProvider}\n${d.embeddingModel}\n${d.embeddingDimension}`;
      const group = groups.get(key) ?? { provider: d.embeddingProvider, model: d.embeddingModel, dimension: d.embeddingDimension ?? 0, documents: [] };
      group.documents.push({ id: d.id, fileName: d.fileName });
      groups.set(key, group);
    }
    return [...groups.values()].sort((a, b) => a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model));
  }

  async listProcessing(before: Date) {
    return [...this.documents.values()].filter((d) => d.status === 'processing' && d.updatedAt <= before).map((d) => structuredClone(d));
  }

  async startRun(id: string) {
    const d = this.processing(id);
    if (!d) return null;
    Object.assign(d, { attempts: d.attempts + 1, progress: 0, updatedAt: this.now() });
    return d.attempts;
  }

  async setProgress(id: string, progress: number) {
    return this.change(id, { progress: Math.max(0, Math.min(100, Math.round(progress))) });
  }

  async markReady(id: string, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }) {
    return this.change(id, { status: 'ready', progress: 100, error: null, ...result });
  }

  async markError(id: string, reason: string) {
    return this.change(id, { status: 'error', error: reason.slice(0, 1000) });
  }

  async findByContentHash(applicationId: string, contentHash: string) {
    const d = [...this.documents.values()].find((x) => x.applicationId === applicationId && x.contentHash === contentHash);
    return d ? structuredClone(d) : null;
  }

  async startReindex(id: string, settings: { chunkSize: number; chunkOverlap: number }) {
    const d = this.documents.get(id);
    if (d?.status !== 'ready') return null;
    const generation = Math.max(d.generation, d.pendingGeneration ?? 0) + 1;
    Object.assign(d, { pendingGeneration: generation, pendingChunkSize: settings.chunkSize, pendingChunkOverlap: settings.chunkOverlap, error: null, updatedAt: this.now() });
    return generation;
  }

  async completeReindex(id: string, generation: number, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }) {
    const d = this.documents.get(id);
    if (d?.status !== 'ready' || d.pendingGeneration !== generation) return false;
    Object.assign(d, {
      ...result, generation, chunkSize: d.pendingChunkSize!, chunkOverlap: d.pendingChunkOverlap!,
      pendingGeneration: null, pendingChunkSize: null, pendingChunkOverlap: null, updatedAt: this.now(),
    });
    return true;
  }

  async failReindex(id: string, generation: number, reason: string) {
    const d = this.documents.get(id);
    if (!d || d.pendingGeneration !== generation) return false;
    Object.assign(d, { pendingGeneration: null, pendingChunkSize: null, pendingChunkOverlap: null, error: `Re-indexing failed: ${reason}`.slice(0, 1000), updatedAt: this.now() });
    return true;
  }

  async listReindexing(before: Date) {
    return [...this.documents.values()].filter((d) => d.status === 'ready' && d.pendingGeneration !== null && d.updatedAt <= before).map((d) => structuredClone(d));
  }

  async storageKeysByApplication(applicationId: string): Promise<string[]> {
    return [...this.documents.values()].filter((d) => d.applicationId === applicationId).map((d) => d.storageKey);
  }

  async storageKeysByOwner(ownerId: string): Promise<string[]> {
    const keys: string[] = [];
    for (const d of this.documents.values()) if ((await this.applications.findById(d.applicationId))?.ownerId === ownerId) keys.push(d.storageKey);
    return keys;
  }

  async delete(id: string) {
    const d = this.documents.get(id);
    this.documents.delete(id);
    return d ? structuredClone(d) : null;
  }

  private processing(id: string): KnowledgeDocument | undefined {
    const d = this.documents.get(id);
    return d?.status === 'processing' ? d : undefined;
  }

  private change(id: string, changes: Partial<KnowledgeDocument>): boolean {
    const d = this.processing(id);
    if (!d) return false;
    Object.assign(d, changes, { updatedAt: this.now() });
    return true;
  }

  /** Strictly increasing, so ordering by time is well defined within one millisecond. */
  private now(): Date {
    return new Date(Date.now() + this.tick++);
  }
}
