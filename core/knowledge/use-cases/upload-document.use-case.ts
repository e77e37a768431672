import { createHash } from 'node:crypto';
import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { TeamRoleLookup } from '../../access/access-policy';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { JobQueue } from '../../shared/job-queue.port';
import { idField, str, validate } from '../../shared/validation';
import { cleanFileName } from '../../uploads/domain/upload';
import type { FileStore } from '../../uploads/ports/file-store.port';
import type { ReceivedFile } from '../../uploads/use-cases/create-upload.use-case';
import { validateChunkOptions } from '../domain/chunker';
import { EMBEDDING_PROVIDERS, toDocumentView, type EmbeddingProvider, type KnowledgeDocumentView } from '../domain/knowledge-document';
import type { DocumentParser } from '../ports/document-parser.port';
import type { EmbedderRegistry } from '../ports/embedder-registry.port';
import type { EmbeddingKeySource } from '../ports/embedding-key-source.port';
import type { KnowledgeBaseRepository } from '../ports/knowledge-base-repository.port';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import { findOwnedBase } from './knowledge-bases.use-cases';
import { PROCESS_DOCUMENT_JOB, type ProcessDocumentJob } from './process-document.use-case';
import { readDocument } from './read-document';
import { DocumentVersionsUseCase } from './document-versions.use-case';
import { documentsFolder } from '../../uploads/use-cases/stored-files-cleanup';

/** Multipart fields arrive as text: a whole number written in digits is read as one. */
const formInt = (name: string) =>
  yup
    .number()
    .transform((_value: unknown, original: unknown) => (typeof original === 'string' && /^\s*-?\d{1,9}\s*$/.test(original) ? Number(original) : original))
    .typeError(`${name} must be a whole number`);

const fields = {
  chunkSize: formInt('chunkSize'),
  chunkOverlap: formInt('chunkOverlap'),
  embeddingProvider: str().oneOf([...EMBEDDING_PROVIDERS], `embeddingProvider must be one of ${EMBEDDING_PROVIDERS.join(', ')}`),
  embeddingModel: str().min(1).max(200, 'embeddingModel must be at most 200 characters'),
};
const schema = yup.object({ applicationId: idField().required('applicationId is required'), ...fields });
const baseSchema = yup.object(fields);
type UploadFields = yup.InferType<typeof baseSchema>;

export interface UploadDocumentDeps {
  applications: ApplicationRepository;
  documents: KnowledgeDocumentRepository;
  files: FileStore;
  queue: JobQueue;
  embedders: EmbedderRegistry;
  keys: EmbeddingKeySource;
  parser: DocumentParser;
  bases?: KnowledgeBaseRepository;
  teams?: TeamRoleLookup;
}

/**
 * Accepts a document into an application's knowledge base: checks it can be read at once (so a bad file
 * is a 4xx now, not an error later), stores it and queues its processing. The answer is `processing`.
 * The same bytes already in the application are a 409 naming the document that holds them; a file by the
 * name of a document already there becomes that document's next version (`DocumentVersionsUseCase`).
 */
export class UploadDocumentUseCase {
  constructor(private readonly deps: UploadDocumentDeps) {}

  async execute(input: { fields: Record<string, unknown>; file?: ReceivedFile }, actor: Actor): Promise<KnowledgeDocumentView> {
    const body = await validate(schema, input.fields);
    // The application's own base has the application's id.
    const app = await findOwnedApplication(this.deps.applications, body.applicationId, actor, 'write');
    return this.store({ id: app.id, ownerId: app.ownerId }, body, input.file, actor);
  }

  /** The same into a knowledge base (`POST /api/knowledge/bases/:id/documents`): the Member role on it is needed. */
  async intoBase(baseId: string, input: { fields: Record<string, unknown>; file?: ReceivedFile }, actor: Actor): Promise<KnowledgeDocumentView> {
    const body = await validate(baseSchema, input.fields);
    if (!this.deps.bases) throw new NotFoundError('Knowledge base');
    const base = await findOwnedBase(this.deps.bases, baseId, actor, 'write', this.deps.teams ?? null);
    return this.store({ id: base.id, ownerId: base.ownerId }, body, input.file, actor);
  }

  /** `base`: where the document goes and whose folder keeps its file. */
  private async store(base: { id: string; ownerId: string }, body: UploadFields, file: ReceivedFile | undefined, actor: Actor): Promise<KnowledgeDocumentView> {
    const chunking = validateChunkOptions({ chunkSize: body.chunkSize, chunkOverlap: body.chunkOverlap });
    if (!file) throw ValidationError.field('file', 'file is required (multipart field "file")');
    const fileName = cleanFileName(file.name, 'document.txt');
    const contentHash = createHash('sha256').update(file.bytes).digest('hex');
    const same = await this.deps.documents.findByContentHash(base.id, contentHash);
    if (same) throw new ConflictError(`This file is already in the knowledge base as "${same.fileName}" (document ${same.id})`);
    // A file by the name of a document already there is its new version (the document keeps its id).
    const named = await this.deps.documents.findByFileName(base.id, fileName);
    if (named) {
      const settings = body.chunkSize === undefined && body.chunkOverlap === undefined ? undefined : chunking;
      return new DocumentVersionsUseCase(this.deps).replace(named, base.ownerId, { name: fileName, bytes: file.bytes, contentHash }, actor, settings);
    }
    const { format } = await readDocument(this.deps.parser, file.bytes, fileName);
    const provider = (body.embeddingProvider ?? 'local') as EmbeddingProvider;
    const embedder = this.deps.embedders.get(provider, body.embeddingModel);
    if (provider !== 'local' && !(await this.deps.keys.keyFor(actor.userId, provider))) {
      throw ValidationError.field('embeddingProvider', `No API key is available for ${provider}; save your own key for it or use "local"`);
    }

    // Under the base's folder (an application's own base: the application's): deleting it (or the account) also removes a file whose row it never saw.
    const storageKey = `${documentsFolder(base)}/${newId()}.${format}`;
    await this.deps.files.write(storageKey, file.bytes);
    let document;
    try {
      document = await this.deps.documents.create({
        applicationId: base.id,
        fileName,
        format,
        sizeBytes: file.bytes.length,
        storageKey,
        chunkSize: chunking.chunkSize,
        chunkOverlap: chunking.chunkOverlap,
        embeddingProvider: provider,
        embeddingModel: embedder.model,
        embeddingDimension: embedder.dimension,
        contentHash,
        createdBy: actor.userId,
      });
    } catch (error) {
      await this.deps.files.delete(storageKey);
      throw error;
    }
    try {
      await this.deps.queue.enqueue<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, { documentId: document.id }, { id: document.id });
    } catch {
      // Nothing would ever process it: take it back rather than leave a document that never leaves `processing`.
      await this.deps.documents.delete(document.id);
      await this.deps.files.delete(storageKey);
      throw new UnavailableError('Background processing is unavailable right now; try again shortly');
    }
    return toDocumentView(document);
  }
}
