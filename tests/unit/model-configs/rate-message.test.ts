import type { Conversation } from '../../../core/conversations/domain/conversation';
import type { ConversationRepository } from '../../../core/conversations/ports/conversation-repository.port';
import { RateMessageUseCase } from '../../../core/model-configs/use-cases/rate-message.use-case';
import { NotFoundError, ValidationError } from '../../../core/shared/errors';
import { randomUUID } from 'node:crypto';
import { anActor, anApplication, aWorld } from './model-configs.fixtures';

describe('rating answers', () => {
  const world = aWorld();
  const owner = anActor();
  const conversationId = randomUUID();
  const ids = { answer: randomUUID(), question: randomUUID(), failed: randomUUID(), elsewhere: randomUUID() };
  let rate: RateMessageUseCase;

  beforeAll(async () => {
    const app = await anApplication(world, owner);
    const conversation = { id: conversationId, applicationId: app.id } as Conversation;
    // Only the ownership lookup of the conversation repository is used here.
    const conversations = {
      findWithOwner: async (id: string) => (id === conversationId ? { conversation, ownerId: owner.userId } : null),
    } as unknown as ConversationRepository;
    rate = new RateMessageUseCase({ ...world, conversations });
    const message = (id: string, fields: object) =>
      world.ratings.messages.set(id, { id, conversationId, role: 'assistant', status: 'complete', configVersionId: null, rating: null, ...fields });
    message(ids.answer, {});
    message(ids.question, { role: 'user' });
    message(ids.failed, { status: 'failed' });
    message(ids.elsewhere, { conversationId: randomUUID() });
  });

  it('stores a rating from 1 to 5 and replaces it when rated again', async () => {
    expect(await rate.execute(conversationId, ids.answer, { rating: 4 }, owner)).toEqual({ conversationId, messageId: ids.answer, rating: 4 });
    await rate.execute(conversationId, ids.answer, { rating: 2 }, owner);
    expect(world.ratings.messages.get(ids.answer)!.rating).toBe(2);
  });

  it.each([0, 6, 3.5, '5', null, undefined])('refuses the rating %p', async (rating) => {
    await expect(rate.execute(conversationId, ids.answer, { rating }, owner)).rejects.toBeInstanceOf(ValidationError);
  });

  it("refuses the user's own messages and failed answers", async () => {
    await expect(rate.execute(conversationId, ids.question, { rating: 5 }, owner)).rejects.toBeInstanceOf(ValidationError);
    await expect(rate.execute(conversationId, ids.failed, { rating: 5 }, owner)).rejects.toBeInstanceOf(ValidationError);
    expect(world.ratings.messages.get(ids.question)!.rating).toBeNull();
  });

  it("answers 404 for another user's conversation, a message of another conversation, or a bad id", async () => {
    await expect(rate.execute(conversationId, ids.answer, { rating: 5 }, anActor())).rejects.toBeInstanceOf(NotFoundError);
    await expect(rate.execute(conversationId, ids.elsewhere, { rating: 5 }, owner)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rate.execute(conversationId, 'not-a-uuid', { rating: 5 }, owner)).rejects.toBeInstanceOf(NotFoundError);
  });
});
