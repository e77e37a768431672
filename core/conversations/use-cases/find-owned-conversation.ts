import { authorize } from '../../access/access-policy';
import type { AccessAction } from '../../access/roles';
import type { Application } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Conversation } from '../domain/conversation';
import type { ConversationRepository } from '../ports/conversation-repository.port';

/**
 * The conversation if the caller may perform `action` on its application (core/access decides: its
 * owner, or a member of its team whose role allows it; the strictest action by default); otherwise 404.
 */
export async function findOwnedConversation(
  deps: { conversations: ConversationRepository; applications: ApplicationRepository },
  id: unknown,
  actor: Actor,
  /** A chat turn may start from the cached conversation (see ConversationRepository.findForTurn). */
  purpose: 'read' | 'turn' = 'read',
  action: AccessAction = 'delete',
): Promise<{ conversation: Conversation; application: Application }> {
  const find = (key: string) => (purpose === 'turn' ? deps.conversations.findForTurn(key) : deps.conversations.findWithOwner(key));
  const found = isUuid(id) ? await find(id) : null;
  if (!found) throw new NotFoundError('Conversation');
  const application = await deps.applications.findById(found.conversation.applicationId);
  if (!application) throw new NotFoundError('Conversation');
  await authorize(application, actor, action, 'Conversation', deps.applications);
  return { conversation: found.conversation, application };
}
