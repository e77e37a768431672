import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { toDocumentView, type KnowledgeDocumentView } from '../domain/knowledge-document';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import { findOwnedDocument } from './find-owned-document';

/** One of the caller's documents with its processing state (status, progress, chunks, error, embedding). */
export class GetDocumentUseCase {
  constructor(private readonly deps: { documents: KnowledgeDocumentRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<KnowledgeDocumentView> {
    return toDocumentView(await findOwnedDocument(this.deps.documents, id, actor, 'read', this.deps.teams ?? null));
  }
}
