import { randomUUID } from 'node:crypto';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import { ConflictError } from '../../../core/shared/errors';
import type { DocumentVersion, KnowledgeDocument } from '../../../core/knowledge/domain/knowledge-document';
import type { EmbeddingGroup, KnowledgeDocumentRepository, NewDocumentVersion, NewKnowledgeDocument } from '../../../core/knowledge/ports/knowledge-document-repository.port';

/** For unit tests: owners are looked up through the applications it is given. */
export class InMemoryKnowledgeDocumentRepository implements KnowledgeDocumentRepository {
  readonly documents = new Map<string, KnowledgeDocument>();
  readonly versions: DocumentVersion[] = [];
  private tick = 0;

  constructor(private readonly applications: ApplicationRepository) {}

  async create(d: NewKnowledgeDocument): Promise<KnowledgeDocument> {
    const now = this.now();
    const hash = d.contentHash ?? null;
    if (hash !== null && [...this.documents.values()].some((x) => x.applicationId === d.applicationId && x.contentHash === hash)) {
      throw new ConflictError('This file is already in the knowledge base');
    }
    const { createdBy, ...fields } = d;
    const document: KnowledgeDocument = {
      ...fields, id: randomUUID(), status: 'processing', progress: 0, chunkCount: 0, error: null, attempts: 0, contentHash: hash,
      generation: 0, pendingGeneration: null, pendingChunkSize: null, pendingChunkOverlap: null, version: 1, pendingVersion: null, pendingProgress: null,
      createdAt: now, updatedAt: now,
    };
    this.documents.set(document.id, document);
    this.versions.push({
      documentId: document.id, version: 1, fileName: d.fileName, format: d.format, sizeBytes: d.sizeBytes, storageKey: d.storageKey, contentHash: hash,
      createdBy: createdBy ?? null, restoredFrom: null, failure: null, createdAt: now,
    });
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

  /** Only the application's own base: bases used by several applications live in the database's repository. */
  async readyGroups(applicationId: string): Promise<EmbeddingGroup[]> {
    return this.readyGroupsOfBase(applicationId);
  }

  async readyGroupsOfBase(applicationId: string): Promise<EmbeddingGroup[]> {
    const groups = new Map<string, EmbeddingGroup>();
    const ready = [...this.documents.values()].filter((d) => d.applicationId === applicationId && d.status === 'ready' && d.chunkCount > 0);
    for (const d of ready.sort((a, b) => a.id.localeCompare(b.id))) {
      const key = `${d.embeddingProvider}\n${d.embeddingModel}\n${d.embeddingDimension}`;
      const group = groups.get(key) ?? { baseId: d.applicationId, provider: d.embeddingProvider, model: d.embeddingModel, dimension: d.embeddingDimension ?? 0, documents: [] };
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

  async findByFileName(applicationId: string, fileName: string) {
    const d = [...this.documents.values()].filter((x) => x.applicationId === applicationId && x.fileName === fileName).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
    return d ? structuredClone(d) : null;
  }

  async startReplace(id: string, file: NewDocumentVersion, settings: { chunkSize: number; chunkOverlap: number }) {
    const d = this.documents.get(id);
    if (d?.status !== 'ready') return null;
    const generation = Math.max(d.generation, d.pendingGeneration ?? 0) + 1;
    const version = Math.max(0, ...this.versions.filter((v) => v.documentId === id).map((v) => v.version)) + 1;
    this.versions.push({ ...file, documentId: id, version, failure: null, createdAt: this.now() });
    Object.assign(d, {
      pendingGeneration: generation, pendingVersion: version, pendingProgress: 0, pendingChunkSize: settings.chunkSize, pendingChunkOverlap: settings.chunkOverlap,
      error: null, updatedAt: this.now(),
    });
    return { generation, version };
  }

  async listVersions(id: string) {
    return this.versions.filter((v) => v.documentId === id).sort((a, b) => b.version - a.version).map((v) => structuredClone(v));
  }

  async findVersion(id: string, version: number) {
    const v = this.versions.find((x) => x.documentId === id && x.version === version);
    return v ? structuredClone(v) : null;
  }

  async setReindexProgress(id: string, generation: number, progress: number) {
    const d = this.documents.get(id);
    if (!d || d.pendingGeneration !== generation) return false;
    Object.assign(d, { pendingProgress: Math.max(0, Math.min(100, Math.round(progress))), updatedAt: this.now() });
    return true;
  }

  async addChunks(id: string, delta: number) {
    const d = this.documents.get(id);
    if (d) d.chunkCount = Math.max(0, d.chunkCount + delta);
  }

  async startReindex(id: string, settings: { chunkSize: number; chunkOverlap: number }) {
    const d = this.documents.get(id);
    if (d?.status !== 'ready') return null;
    const generation = Math.max(d.generation, d.pendingGeneration ?? 0) + 1;
    Object.assign(d, {
      pendingGeneration: generation, pendingChunkSize: settings.chunkSize, pendingChunkOverlap: settings.chunkOverlap, pendingVersion: null, pendingProgress: 0,
      error: null, updatedAt: this.now(),
    });
    return generation;
  }

  async completeReindex(id: string, generation: number, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }) {
    const d = this.documents.get(id);
    if (d?.status !== 'ready' || d.pendingGeneration !== generation) return false;
    const v = d.pendingVersion === null ? undefined : this.versions.find((x) => x.documentId === id && x.version === d.pendingVersion);
    const file = v ? { fileName: v.fileName, format: v.format, sizeBytes: v.sizeBytes, storageKey: v.storageKey, contentHash: v.contentHash, version: v.version } : {};
    Object.assign(d, {
      ...result, ...file, generation, chunkSize: d.pendingChunkSize!, chunkOverlap: d.pendingChunkOverlap!,
      pendingGeneration: null, pendingChunkSize: null, pendingChunkOverlap: null, pendingVersion: null, pendingProgress: null, updatedAt: this.now(),
    });
    return true;
  }

  async failReindex(id: string, generation: number, reason: string) {
    const d = this.documents.get(id);
    if (!d || d.pendingGeneration !== generation) return false;
    const v = this.versions.find((x) => x.documentId === id && x.version === d.pendingVersion);
    if (v) v.failure = reason.slice(0, 1000);
    Object.assign(d, {
      pendingGeneration: null, pendingChunkSize: null, pendingChunkOverlap: null, pendingVersion: null, pendingProgress: null,
      error: `Re-indexing failed: ${reason}`.slice(0, 1000), updatedAt: this.now(),
    });
    return true;
  }

  async listReindexing(before: Date) {
    return [...this.documents.values()].filter((d) => d.status === 'ready' && d.pendingGeneration !== null && d.updatedAt <= before).map((d) => structuredClone(d));
  }

  async storageKeysByApplication(applicationId: string): Promise<string[]> {
    const ids = new Set([...this.documents.values()].filter((d) => d.applicationId === applicationId).map((d) => d.id));
    return [...new Set([...[...this.documents.values()].filter((d) => ids.has(d.id)).map((d) => d.storageKey), ...this.versions.filter((v) => ids.has(v.documentId)).map((v) => v.storageKey)])];
  }

  async storageKeysByOwner(ownerId: string): Promise<string[]> {
    const keys: string[] = [];
    for (const d of this.documents.values()) if ((await this.applications.findById(d.applicationId))?.ownerId === ownerId) keys.push(d.storageKey, ...this.versions.filter((v) => v.documentId === d.id).map((v) => v.storageKey));
    return [...new Set(keys)];
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
