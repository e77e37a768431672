import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { ConversationRepository } from '../../conversations/ports/conversation-repository.port';
import { findOwnedConversation } from '../../conversations/use-cases/find-owned-conversation';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { num, validate } from '../../shared/validation';
import type { MessageRatingRepository } from '../ports/message-rating-repository.port';

const schema = yup.object({
  rating: num()
    .typeError('rating must be a whole number from 1 to 5')
    .required('rating is required')
    .integer('rating must be a whole number from 1 to 5')
    .min(1, 'rating must be a whole number from 1 to 5')
    .max(5, 'rating must be a whole number from 1 to 5'),
});

export interface MessageRatingView {
  conversationId: string;
  messageId: string;
  rating: number;
}

/**
 * Rates an assistant answer in one of the caller's conversations from 1 to 5; rating again replaces
 * the rating. Ratings feed the `userSatisfactionScore` of the answer's config version.
 */
export class RateMessageUseCase {
  constructor(
    private readonly deps: {
      conversations: ConversationRepository;
      applications: ApplicationRepository;
      ratings: MessageRatingRepository;
      /** Told of each rating (A/B tests evaluate their application's decision). */
      observed?: (applicationId: string) => void;
    },
  ) {}

  async execute(conversationId: string, messageId: string, input: unknown, actor: Actor): Promise<MessageRatingView> {
    const { conversation } = await findOwnedConversation(this.deps, conversationId, actor, 'read', 'read');
    const { rating } = await validate(schema, input);
    if (!isUuid(messageId)) throw new NotFoundError('Message');
    const result = await this.deps.ratings.rate(conversation.id, messageId, rating);
    if (result === 'missing') throw new NotFoundError('Message');
    if (result === 'not-rateable') throw ValidationError.field('messageId', 'Only answers of the assistant can be rated');
    this.deps.observed?.(conversation.applicationId);
    return { conversationId: conversation.id, messageId, rating };
  }
}
