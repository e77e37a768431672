import * as yup from 'yup';
import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '../../shared/errors';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { estimateTokens } from '../../shared/tokens';
import { bool, num, str, validate } from '../../shared/validation';
import type { FileStore } from '../../uploads/ports/file-store.port';
import type { ReceivedFile } from '../../uploads/use-cases/create-upload.use-case';
import { chunkSections, MAX_CHUNK_SIZE, validateChunkOptions } from '../domain/chunker';
import { embeddingSpace, type KnowledgeDocument } from '../domain/knowledge-document';
import type { DocumentParser } from '../ports/document-parser.port';
import type { EmbedderRegistry } from '../ports/embedder-registry.port';
import type { EmbeddingKeySource } from '../ports/embedding-key-source.port';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import type { StoredChunk, VectorIndex } from '../ports/vector-index.port';
import { embedForOwner } from './embed-texts';
import { findOwnedDocument } from './find-owned-document';
import { readDocument } from './read-document';

/** A chunk written by hand may be as long as the longest chunk the chunker makes. */
const MAX_CHUNK_TEXT = MAX_CHUNK_SIZE;
const MAX_SECTION = 500;

const text = () => str().min(1, 'content must not be empty').max(MAX_CHUNK_TEXT, `content must be at most ${MAX_CHUNK_TEXT} characters`);
const editSchema = yup.object({
  content: text(),
  enabled: bool().typeError('enabled must be true or false'),
});
const addSchema = yup.object({
  content: text().required('content is required'),
  section: str().max(MAX_SECTION, `section must be at most ${MAX_SECTION} characters`).nullable(),
  page: num().integer('page must be a whole number').min(1, 'page must be at least 1').max(1_000_000).nullable().typeError('page must be a whole number'),
});

export interface DocumentChunksDeps {
  documents: KnowledgeDocumentRepository;
  index: VectorIndex;
  embedders: EmbedderRegistry;
  keys: EmbeddingKeySource;
  teams?: TeamRoleLookup;
}

export interface ChunkView extends StoredChunk {
  documentId: string;
}

/**
 * The chunks a document became, and an owner's fixes to them: edit a chunk's text (embedded again with the
 * document's model), disable or enable it (a disabled chunk is kept but never found), add one by hand.
 * Fixes apply to the live chunks: a re-index or a new version rebuilds them from the file.
 */
export class DocumentChunksUseCase {
  constructor(private readonly deps: DocumentChunksDeps) {}

  async list(id: string, query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<ChunkView>> {
    const page = parsePageRequest(query, { limit: 50, maxLimit: 200 });
    const document = await findOwnedDocument(this.deps.documents, id, actor, 'read', this.deps.teams ?? null);
    const { items, total } = await this.deps.index.listChunks(document.id, document.generation, offsetOf(page), page.limit);
    return { data: items.map((c) => ({ documentId: document.id, ...c })), total, page: page.page, limit: page.limit };
  }

  /** `PATCH /api/knowledge/:id/chunks/:index`: `content` (embedded again) and/or `enabled`. */
  async edit(id: string, indexParam: string, body: unknown, actor: Actor): Promise<ChunkView> {
    const input = await validate(editSchema, body);
    if (input.content === undefined && input.enabled === undefined) throw new ValidationError('Send content, enabled or both');
    const chunkIndex = chunkIndexOf(indexParam);
    const { document, ownerId } = await this.owned(id, actor);
    const current = await this.find(document, chunkIndex);
    if (input.content !== undefined) {
      const vector = await this.embed(document, ownerId, input.content);
      const changed = await this.deps.index.replaceChunk(this.target(document), {
        chunkIndex, content: input.content, tokenCount: estimateTokens(input.content), vector, page: current.page, section: current.section,
      });
      if (!changed) throw new NotFoundError('Chunk not found');
    }
    if (input.enabled !== undefined && !(await this.deps.index.setChunkEnabled(document.id, document.generation, chunkIndex, input.enabled))) {
      throw new NotFoundError('Chunk not found');
    }
    return { documentId: document.id, ...(await this.find(document, chunkIndex)) };
  }

  /** `POST /api/knowledge/:id/chunks`: a chunk written by hand, after the last one. */
  async add(id: string, body: unknown, actor: Actor): Promise<ChunkView> {
    const input = await validate(addSchema, body);
    const { document, ownerId } = await this.owned(id, actor);
    const vector = await this.embed(document, ownerId, input.content);
    const chunkIndex = await this.deps.index.appendChunk(this.target(document), {
      content: input.content, tokenCount: estimateTokens(input.content), vector, page: input.page ?? null, section: input.section || null,
    });
    await this.deps.documents.addChunks(document.id, 1);
    return { documentId: document.id, ...(await this.find(document, chunkIndex)) };
  }

  private async owned(id: string, actor: Actor): Promise<{ document: KnowledgeDocument; ownerId: string }> {
    const document = await findOwnedDocument(this.deps.documents, id, actor, 'write', this.deps.teams ?? null);
    if (document.status !== 'ready') throw new ConflictError(`Chunks can be changed once the document is ready; this one is ${document.status}`);
    const found = await this.deps.documents.findWithOwner(document.id);
    if (!found) throw new NotFoundError('Document not found');
    return { document: found.document, ownerId: found.ownerId };
  }

  private async find(document: KnowledgeDocument, chunkIndex: number): Promise<StoredChunk> {
    // Chunk indexes are dense from 0 (the chunker's, then those added by hand): one page read finds it.
    const { items } = await this.deps.index.listChunks(document.id, document.generation, chunkIndex, 1);
    const found = items.find((c) => c.chunkIndex === chunkIndex) ?? (await this.deps.index.listChunks(document.id, document.generation, 0, 100_000)).items.find((c) => c.chunkIndex === chunkIndex);
    if (!found) throw new NotFoundError('Chunk not found');
    return found;
  }

  private target(document: KnowledgeDocument) {
    return { documentId: document.id, applicationId: document.applicationId, space: embeddingSpace(document.embeddingProvider, document.embeddingModel), generation: document.generation };
  }

  private async embed(document: KnowledgeDocument, ownerId: string, content: string): Promise<number[]> {
    const embedder = this.deps.embedders.get(document.embeddingProvider, document.embeddingModel);
    const [vector] = await embedForOwner(embedder, [content], {
      keys: this.deps.keys,
      ownerId,
      provider: document.embeddingProvider,
      dimension: document.embeddingDimension ?? undefined,
      noKey: () => new UnavailableError(`No API key is available for ${document.embeddingProvider}, which embedded this document`),
    });
    return vector!;
  }
}

function chunkIndexOf(param: string): number {
  if (!/^\d{1,9}$/.test(param)) throw new NotFoundError('Chunk not found');
  return Number(param);
}

const previewSchema = yup.object({
  chunkSize: num().typeError('chunkSize must be a whole number'),
  chunkOverlap: num().typeError('chunkOverlap must be a whole number'),
});

/** Multipart fields arrive as text. */
const formNumber = (value: unknown): unknown => (typeof value === 'string' && /^\s*-?\d{1,9}\s*$/.test(value) ? Number(value) : value);

const PREVIEW_CHUNKS = 100;

export interface ChunkPreview {
  fileName: string;
  format: string;
  chunkSize: number;
  chunkOverlap: number;
  /** All the chunks the file makes with these settings. */
  total: number;
  /** The first of them (at most 100). */
  chunks: Array<{ chunkIndex: number; content: string; tokenCount: number; page: number | null; section: string | null }>;
}

/** `POST /api/knowledge/preview`: how a file would be chunked with given settings; nothing is stored. */
export class PreviewChunksUseCase {
  constructor(private readonly deps: { parser: DocumentParser; files?: FileStore }) {}

  async execute(input: { fields: Record<string, unknown>; file?: ReceivedFile }): Promise<ChunkPreview> {
    const fields = await validate(previewSchema, { chunkSize: formNumber(input.fields.chunkSize), chunkOverlap: formNumber(input.fields.chunkOverlap) });
    const settings = validateChunkOptions({ chunkSize: fields.chunkSize, chunkOverlap: fields.chunkOverlap });
    if (!input.file) throw ValidationError.field('file', 'file is required (multipart field "file")');
    const parsed = await readDocument(this.deps.parser, input.file.bytes, input.file.name);
    const chunks = chunkSections(parsed.sections, settings);
    return {
      fileName: input.file.name,
      format: parsed.format,
      ...settings,
      total: chunks.length,
      chunks: chunks.slice(0, PREVIEW_CHUNKS).map((c) => ({ chunkIndex: c.index, content: c.content, tokenCount: c.tokenCount, page: c.page ?? null, section: c.section ?? null })),
    };
  }
}
