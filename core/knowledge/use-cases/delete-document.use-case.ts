import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import type { FileStore } from '../../uploads/ports/file-store.port';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import type { VectorIndex } from '../ports/vector-index.port';
import { findOwnedDocument } from './find-owned-document';

/** Deletes one of the caller's documents, its chunks and the stored files of all its versions. A run still processing it stops. */
export class DeleteDocumentUseCase {
  constructor(private readonly deps: { documents: KnowledgeDocumentRepository; index: VectorIndex; files: FileStore; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const document = await findOwnedDocument(this.deps.documents, id, actor, 'write', this.deps.teams ?? null);
    const versions = await this.deps.documents.listVersions(document.id);
    const deleted = await this.deps.documents.delete(document.id);
    if (!deleted) return;
    await this.deps.index.removeDocument(deleted.id);
    // Every version's file (a rollback shares its file with the version it brought back).
    for (const key of new Set([deleted.storageKey, ...versions.map((v) => v.storageKey)])) await this.deps.files.delete(key);
  }
}
