import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import { toConversationView, type ConversationView } from '../domain/conversation';
import type { ConversationRepository } from '../ports/conversation-repository.port';
import { findOwnedConversation } from './find-owned-conversation';

const schema = yup.object({
  title: str()
    .required('title is required')
    .max(200, 'title must be at most 200 characters'),
});

/** Renames one of the caller's conversations (`PATCH /api/conversations/:id`), as archiving it needs `write`. */
export class RenameConversationUseCase {
  constructor(private readonly deps: { conversations: ConversationRepository; applications: ApplicationRepository }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ConversationView> {
    const { title } = await validate(schema, input);
    const { conversation } = await findOwnedConversation(this.deps, id, actor, 'read', 'write');
    if (!(await this.deps.conversations.rename(conversation.id, title))) throw new NotFoundError('Conversation');
    return toConversationView({ ...conversation, title });
  }
}
