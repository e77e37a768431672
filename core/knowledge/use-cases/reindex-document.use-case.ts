import type { TeamRoleLookup } from '../../access/access-policy';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '../../shared/errors';
import type { JobQueue } from '../../shared/job-queue.port';
import { validateChunkOptions } from '../domain/chunker';
import { toDocumentView, type KnowledgeDocumentView } from '../domain/knowledge-document';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import type { KnowledgeBaseRepository } from '../ports/knowledge-base-repository.port';
import { findOwnedDocument } from './find-owned-document';
import { findOwnedBase } from './knowledge-bases.use-cases';
import { PROCESS_DOCUMENT_JOB, processJobId, type ProcessDocumentJob } from './process-document.use-case';

const wholeNumber = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw ValidationError.field(name, `${name} must be a whole number`);
};

/**
 * Re-indexes one of the caller's ready documents with new chunk settings (202): the new chunks are built
 * beside the live ones, which search keeps finding until the switch (`reindexing` shows the work under way).
 */
export class ReindexDocumentUseCase {
  constructor(
    private readonly deps: { documents: KnowledgeDocumentRepository; queue: JobQueue; teams?: TeamRoleLookup; applications?: ApplicationRepository; bases?: KnowledgeBaseRepository },
  ) {}

  /**
   * `POST /api/knowledge/reindex`: re-indexes every ready document of one of the caller's applications
   * (each as one document's re-index: searchable throughout); each document's `reindexing.progress` shows
   * how far it has got. Documents not ready are skipped.
   */
  async reindexApplication(body: { applicationId?: unknown; chunkSize?: unknown; chunkOverlap?: unknown } | undefined, actor: Actor): Promise<{ started: number; skipped: number }> {
    const input = body && typeof body === 'object' ? body : {};
    if (input.applicationId === undefined || input.applicationId === '') throw ValidationError.field('applicationId', 'applicationId is required');
    const settings = this.chunkSettings(input);
    // The application's own base has the application's id.
    const app = await findOwnedApplication(this.deps.applications!, input.applicationId, actor, 'write');
    return this.reindexAll(app.id, settings);
  }

  /** `POST /api/knowledge/bases/:id/reindex`: the same for every ready document of a knowledge base. */
  async reindexBase(baseId: string, body: { chunkSize?: unknown; chunkOverlap?: unknown } | undefined, actor: Actor): Promise<{ started: number; skipped: number }> {
    const settings = this.chunkSettings(body && typeof body === 'object' ? body : {});
    if (!this.deps.bases) throw new NotFoundError('Knowledge base');
    const base = await findOwnedBase(this.deps.bases, baseId, actor, 'write', this.deps.teams ?? null);
    return this.reindexAll(base.id, settings);
  }

  private chunkSettings(input: { chunkSize?: unknown; chunkOverlap?: unknown }): { chunkSize?: number; chunkOverlap?: number } {
    const chunkSize = wholeNumber(input.chunkSize, 'chunkSize');
    const chunkOverlap = wholeNumber(input.chunkOverlap, 'chunkOverlap');
    if (chunkSize !== undefined || chunkOverlap !== undefined) validateChunkOptions({ chunkSize: chunkSize ?? 1000, chunkOverlap: chunkOverlap ?? Math.min(200, Math.floor((chunkSize ?? 1000) / 2)) });
    return { chunkSize, chunkOverlap };
  }

  private async reindexAll(baseId: string, { chunkSize, chunkOverlap }: { chunkSize?: number; chunkOverlap?: number }): Promise<{ started: number; skipped: number }> {
    let started = 0;
    let skipped = 0;
    for (let offset = 0; ; offset += 100) {
      const { items } = await this.deps.documents.listByApplication(baseId, offset, 100);
      for (const document of items) {
        if (document.status !== 'ready') {
          skipped++;
          continue;
        }
        const settings = validateChunkOptions({ chunkSize: chunkSize ?? document.chunkSize, chunkOverlap: chunkOverlap ?? Math.min(document.chunkOverlap, Math.floor((chunkSize ?? document.chunkSize) / 2)) });
        const generation = await this.deps.documents.startReindex(document.id, settings);
        if (generation === null) {
          skipped++;
          continue;
        }
        const job = { documentId: document.id, generation };
        try {
          await this.deps.queue.enqueue<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, job, { id: processJobId(job) });
        } catch {
          await this.deps.documents.failReindex(document.id, generation, 'background processing was unavailable');
          throw new UnavailableError('Background processing is unavailable right now; try again shortly');
        }
        started++;
      }
      if (items.length < 100) break;
    }
    return { started, skipped };
  }

  async execute(id: string, body: { chunkSize?: unknown; chunkOverlap?: unknown } | undefined, actor: Actor): Promise<KnowledgeDocumentView> {
    const document = await findOwnedDocument(this.deps.documents, id, actor, 'write', this.deps.teams ?? null);
    const input = body && typeof body === 'object' ? body : {};
    const settings = validateChunkOptions({
      chunkSize: wholeNumber(input.chunkSize, 'chunkSize') ?? document.chunkSize,
      chunkOverlap: wholeNumber(input.chunkOverlap, 'chunkOverlap') ?? document.chunkOverlap,
    });
    const generation = await this.deps.documents.startReindex(document.id, settings);
    if (generation === null) throw new ConflictError(`Only a ready document can be re-indexed; this one is ${document.status}`);
    const job = { documentId: document.id, generation };
    try {
      await this.deps.queue.enqueue<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, job, { id: processJobId(job) });
    } catch {
      await this.deps.documents.failReindex(document.id, generation, 'background processing was unavailable');
      throw new UnavailableError('Background processing is unavailable right now; try again shortly');
    }
    return toDocumentView((await this.deps.documents.findById(document.id)) ?? document);
  }
}
