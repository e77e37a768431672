import { authorize, type TeamRoleLookup } from '../../access/access-policy';
import type { AccessAction } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { isUuid } from '../../shared/ids';
import type { KnowledgeDocument } from '../domain/knowledge-document';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';

/**
 * The document if the caller may perform `action` on its application (core/access decides; the
 * strictest action by default); otherwise 404 (or 403 when they see it but their role does not allow it).
 */
export async function findOwnedDocument(
  documents: KnowledgeDocumentRepository,
  id: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
  teams: TeamRoleLookup | null = null,
): Promise<KnowledgeDocument> {
  const found = isUuid(id) ? await documents.findWithOwner(id) : null;
  await authorize(found, actor, action, 'Document', teams);
  return found!.document;
}
