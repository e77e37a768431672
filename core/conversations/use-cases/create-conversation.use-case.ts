import * as yup from 'yup';
import type { ChatEngine } from '../../ai/ports/chat-engine.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { Actor } from '../../shared/actor';
import { idField, str, validate } from '../../shared/validation';
import type { ConversationView } from '../domain/conversation';
import type { ChatTurnRunner } from './run-chat-turn';

const schema = yup.object({
  applicationId: idField().required('applicationId is required'),
  title: str().max(200, 'title must be at most 200 characters'),
});

/** Starts a conversation in one of the caller's applications (SPEC 4.3). */
export class CreateConversationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; engine: ChatEngine; runner: ChatTurnRunner; events?: EventPublisher }) {}

  async execute(input: unknown, actor: Actor): Promise<ConversationView> {
    const { applicationId, title } = await validate(schema, input);
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    const { configVersionId } = await this.deps.runner.assignOnCreate(application);
    const created = await this.deps.engine.createConversation({ applicationId: application.id, title, source: 'dashboard', configVersionId });
    // The engine may be another service: the event is written right after its change, not with it.
    await this.deps.events?.publish({
      type: 'conversation.started',
      ownerId: application.ownerId,
      applicationId: application.id,
      data: { applicationId: application.id, conversationId: created.id, source: 'dashboard' },
    });
    return created;
  }
}
