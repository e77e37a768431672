import { randomUUID } from 'node:crypto';
import * as yup from 'yup';
import type { ConversationStart } from '../../ai/ports/chat-engine.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { titleFrom, type Conversation } from '../../conversations/domain/conversation';
import type { ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { ConversationRepository } from '../../conversations/ports/conversation-repository.port';
import type { ChatTurnRunner } from '../../conversations/use-cases/run-chat-turn';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { idField, str, validate } from '../../shared/validation';
import type { PublicCaller } from '../domain/public-caller';
import { findScopedApplication } from './scoped-application';

const schema = yup.object({
  message: str().required('message is required').max(100_000, 'message must be at most 100000 characters'),
  applicationId: idField().required('applicationId is required'),
  conversationId: idField(),
});

export type PublicChatDeps = {
  applications: ApplicationRepository;
  conversations: ConversationRepository;
  runner: ChatTurnRunner;
};

/**
 * A public chat turn ready for the runner. For a new conversation, `turn.conversation` is a draft under
 * a new id and `opening` says what to create: the engine creates it with the first message, only once
 * every policy (plan, keys, quota, message limit) has admitted the turn, so a refused first turn leaves
 * no empty conversation behind.
 */
export interface PublicTurn {
  turn: ChatTurn;
  opening?: ConversationStart;
}

/**
 * The turn a public chat request asks for: the application in the key's scope, and either the
 * conversation this same key started (`conversationId`) or a new one. Whose plan, keys and quota
 * apply is the application's owner's.
 */
export async function openPublicTurn(deps: PublicChatDeps, input: unknown, caller: PublicCaller): Promise<PublicTurn> {
  const body = await validate(schema, input);
  const application = await findScopedApplication(deps.applications, caller, body.applicationId);
  const turnOf = (conversation: Conversation): ChatTurn => ({
    ownerId: application.ownerId,
    application,
    conversation,
    content: body.message,
    source: caller.source,
  });
  if (body.conversationId) {
    const conversation = await continued(deps.conversations, body.conversationId, caller, application.id);
    return { turn: turnOf(conversation) };
  }
  const conversation = await draft(deps, application, body.message, caller);
  return {
    turn: turnOf(conversation),
    opening: {
      applicationId: conversation.applicationId,
      title: conversation.title,
      source: conversation.source,
      apiKeyId: conversation.apiKeyId,
      configVersionId: conversation.configVersionId,
    },
  };
}

/** Only conversations started with this very key continue; any other is "not found". */
async function continued(conversations: ConversationRepository, id: string, caller: PublicCaller, applicationId: string): Promise<Conversation> {
  const conversation = isUuid(id) ? ((await conversations.findForTurn(id))?.conversation ?? null) : null;
  if (!conversation || conversation.apiKeyId !== caller.key.id || conversation.applicationId !== applicationId) {
    throw new NotFoundError('Conversation');
  }
  return conversation;
}

/** The conversation a first turn will open, not stored yet: what the policies see while they decide. */
async function draft(deps: PublicChatDeps, application: ChatTurn['application'], message: string, caller: PublicCaller): Promise<Conversation> {
  const { configVersionId } = await deps.runner.assignOnCreate(application);
  const now = new Date();
  return {
    id: randomUUID(),
    applicationId: application.id,
    title: titleFrom(message),
    status: 'active',
    source: caller.source,
    apiKeyId: caller.key.id,
    configVersionId,
    createdAt: now,
    updatedAt: now,
  };
}
