import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { KnowledgeDocument } from '../domain/knowledge-document';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';

/** The document if it belongs to one of the caller's applications; otherwise 404. */
export async function findOwnedDocument(documents: KnowledgeDocumentRepository, id: unknown, actor: Actor): Promise<KnowledgeDocument> {
  const found = isUuid(id) ? await documents.findWithOwner(id) : null;
  if (!found || found.ownerId !== actor.userId) throw new NotFoundError('Document');
  return found.document;
}
