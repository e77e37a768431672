import { randomUUID } from 'node:crypto';
import * as yup from 'yup';
import type { ChatStreamEvent } from '../../ai/ports/chat-engine.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { titleFrom, type Conversation } from '../../conversations/domain/conversation';
import type { ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { ConversationRepository } from '../../conversations/ports/conversation-repository.port';
import type { ChatTurnRunner } from '../../conversations/use-cases/run-chat-turn';
import { NotFoundError, RateLimitedError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { RateLimiter } from '../../shared/rate-limiter.port';
import { str, validate } from '../../shared/validation';
import type { ConversationTokens } from '../ports/conversation-tokens.port';
import { findHostedApplication } from './hosted-application';

const schema = yup.object({
  message: str().required('message is required').max(100_000, 'message must be at most 100000 characters'),
  conversationId: str(),
});

/** Messages one visitor address may send to one hosted page per minute. */
export const HOSTED_MESSAGES_PER_MINUTE = 20;

/**
 * `POST /api/hosted/:slug/chat/stream`: a visitor's message on the hosted chat page, streamed like the
 * public API's. No key: the page is public, so each address is limited per application, and a
 * conversation continues only with the token its first answer carried. The owner's plan and keys apply.
 */
export class StreamHostedMessageUseCase {
  constructor(
    private readonly deps: {
      applications: ApplicationRepository;
      conversations: ConversationRepository;
      runner: ChatTurnRunner;
      tokens: ConversationTokens;
      limiter: RateLimiter;
    },
  ) {}

  async execute(
    slug: string,
    input: unknown,
    visitor: { address: string; token?: string },
    signal?: AbortSignal,
  ): Promise<{ conversationId: string; token: string; events: AsyncIterable<ChatStreamEvent> }> {
    const application = await findHostedApplication(this.deps.applications, slug);
    const body = await validate(schema, input);
    const decision = await this.deps.limiter.consume(`hosted:${application.id}:${visitor.address}`, { limit: HOSTED_MESSAGES_PER_MINUTE, windowSeconds: 60 });
    if (!decision.allowed) throw new RateLimitedError('Too many messages; please wait a moment', decision.retryAfterSeconds);
    let conversation: Conversation;
    let opening;
    if (body.conversationId) {
      const found = isUuid(body.conversationId) ? ((await this.deps.conversations.findForTurn(body.conversationId))?.conversation ?? null) : null;
      if (!found || found.applicationId !== application.id || !this.deps.tokens.verify(found.id, visitor.token ?? '')) throw new NotFoundError('Conversation');
      conversation = found;
    } else {
      const { configVersionId } = await this.deps.runner.assignOnCreate(application);
      const now = new Date();
      conversation = { id: randomUUID(), applicationId: application.id, title: titleFrom(body.message), status: 'active', source: 'widget', apiKeyId: null, configVersionId, createdAt: now, updatedAt: now };
      opening = { applicationId: application.id, title: conversation.title, source: conversation.source, apiKeyId: null, configVersionId };
    }
    const turn: ChatTurn = { ownerId: application.ownerId, application, conversation, content: body.message, source: 'widget' };
    const events = await this.deps.runner.stream(turn, { content: body.message, settings: {} }, signal, opening);
    return { conversationId: conversation.id, token: this.deps.tokens.issue(conversation.id), events };
  }
}
