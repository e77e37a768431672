import { createHash } from 'node:crypto';
import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { JobQueue } from '../../shared/job-queue.port';
import { cleanFileName } from '../../uploads/domain/upload';
import type { FileStore } from '../../uploads/ports/file-store.port';
import type { ReceivedFile } from '../../uploads/use-cases/create-upload.use-case';
import { documentsFolder } from '../../uploads/use-cases/stored-files-cleanup';
import { toDocumentView, toVersionView, type DocumentVersionView, type KnowledgeDocument, type KnowledgeDocumentView } from '../domain/knowledge-document';
import type { DocumentParser } from '../ports/document-parser.port';
import type { KnowledgeDocumentRepository, NewDocumentVersion } from '../ports/knowledge-document-repository.port';
import { findOwnedDocument } from './find-owned-document';
import { PROCESS_DOCUMENT_JOB, processJobId, type ProcessDocumentJob } from './process-document.use-case';
import { readDocument } from './read-document';

export interface DocumentVersionsDeps {
  documents: KnowledgeDocumentRepository;
  files: FileStore;
  queue: JobQueue;
  parser: DocumentParser;
  teams?: TeamRoleLookup;
}

/**
 * A document's versions (docs/knowledge.md): a new file for a document (an upload by its name, or a PUT)
 * becomes its next version, built as the next chunk generation beside the live chunks and switched in one
 * statement when ready, so a search finds the old version until the switch and the new one after, never
 * both nor neither. The document keeps its id; every version stays listed and can be brought back.
 */
export class DocumentVersionsUseCase {
  constructor(private readonly deps: DocumentVersionsDeps) {}

  /** `PUT /api/knowledge/:id`: the multipart `file` becomes the document's next version. */
  async replaceById(id: string, input: { fields: Record<string, unknown>; file?: ReceivedFile }, actor: Actor): Promise<KnowledgeDocumentView> {
    const document = await findOwnedDocument(this.deps.documents, id, actor, 'write', this.deps.teams ?? null);
    if (!input.file) throw ValidationError.field('file', 'file is required (multipart field "file")');
    const found = await this.deps.documents.findWithOwner(document.id);
    if (!found) throw new NotFoundError('Document not found');
    const bytes = input.file.bytes;
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    const same = await this.deps.documents.findByContentHash(document.applicationId, contentHash);
    if (same && same.id !== document.id) throw new ConflictError(`This file is already in the knowledge base as "${same.fileName}" (document ${same.id})`);
    return this.replace(found.document, found.ownerId, { name: cleanFileName(input.file.name, document.fileName), bytes, contentHash }, actor, undefined);
  }

  /**
   * Stores `file` as the document's next version and queues its build. The caller checked access and
   * that no other document holds the same bytes; identical to the current version is a 409 naming it.
   */
  async replace(
    document: KnowledgeDocument,
    ownerId: string,
    file: { name: string; bytes: Buffer; contentHash: string },
    actor: Actor,
    settings: { chunkSize: number; chunkOverlap: number } | undefined,
  ): Promise<KnowledgeDocumentView> {
    if (document.contentHash === file.contentHash) {
      throw new ConflictError(`This file is the same as the current version of "${document.fileName}" (document ${document.id})`);
    }
    this.mustBeReady(document);
    const { format } = await readDocument(this.deps.parser, file.bytes, file.name);
    const storageKey = `${documentsFolder({ id: document.applicationId, ownerId })}/${newId()}.${format}`;
    await this.deps.files.write(storageKey, file.bytes);
    const version: NewDocumentVersion = {
      fileName: file.name, format, sizeBytes: file.bytes.length, storageKey, contentHash: file.contentHash, createdBy: actor.userId, restoredFrom: null,
    };
    try {
      return await this.start(document, version, settings);
    } catch (error) {
      await this.deps.files.delete(storageKey).catch(() => undefined);
      throw error;
    }
  }

  /** `GET /api/knowledge/:id/versions`: newest first, with which one is current. */
  async list(id: string, actor: Actor): Promise<DocumentVersionView[]> {
    const document = await findOwnedDocument(this.deps.documents, id, actor, 'read', this.deps.teams ?? null);
    return (await this.deps.documents.listVersions(document.id)).map((v) => toVersionView(v, document));
  }

  /** `POST /api/knowledge/:id/versions/:version/restore`: a rollback, as a new version holding that version's file. */
  async restore(id: string, versionParam: string, actor: Actor): Promise<KnowledgeDocumentView> {
    const document = await findOwnedDocument(this.deps.documents, id, actor, 'write', this.deps.teams ?? null);
    const number = /^\d{1,9}$/.test(versionParam) ? Number(versionParam) : NaN;
    const version = Number.isInteger(number) ? await this.deps.documents.findVersion(document.id, number) : null;
    if (!version) throw new NotFoundError('Version not found');
    if (version.version === document.version || (version.contentHash !== null && version.contentHash === document.contentHash)) {
      throw new ConflictError(`Version ${version.version} is what "${document.fileName}" already holds`);
    }
    this.mustBeReady(document);
    const same = version.contentHash ? await this.deps.documents.findByContentHash(document.applicationId, version.contentHash) : null;
    if (same && same.id !== document.id) throw new ConflictError(`This file is already in the knowledge base as "${same.fileName}" (document ${same.id})`);
    const { fileName, format, sizeBytes, storageKey, contentHash } = version;
    return this.start(document, { fileName, format, sizeBytes, storageKey, contentHash, createdBy: actor.userId, restoredFrom: version.version }, undefined);
  }

  private mustBeReady(document: KnowledgeDocument): void {
    if (document.status === 'processing') throw new ConflictError(`"${document.fileName}" is still being processed; replace it once it is ready`);
    if (document.status === 'error') throw new ConflictError(`"${document.fileName}" could not be processed; delete it and upload the file again`);
  }

  private async start(document: KnowledgeDocument, version: NewDocumentVersion, settings: { chunkSize: number; chunkOverlap: number } | undefined): Promise<KnowledgeDocumentView> {
    const started = await this.deps.documents.startReplace(document.id, version, settings ?? { chunkSize: document.chunkSize, chunkOverlap: document.chunkOverlap });
    if (!started) throw new ConflictError(`Only a ready document can get a new version; this one is ${document.status}`);
    const job = { documentId: document.id, generation: started.generation };
    try {
      await this.deps.queue.enqueue<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, job, { id: processJobId(job) });
    } catch {
      await this.deps.documents.failReindex(document.id, started.generation, 'background processing was unavailable');
      throw new UnavailableError('Background processing is unavailable right now; try again shortly');
    }
    return toDocumentView((await this.deps.documents.findById(document.id)) ?? document);
  }
}
