import type { MessageRatingRepository } from '../../../core/model-configs/ports/message-rating-repository.port';

export interface RateableMessage {
  id: string;
  conversationId: string;
  role: 'user' | 'assistant';
  status: 'complete' | 'interrupted' | 'failed';
  configVersionId: string | null;
  rating: number | null;
  /** Where the answer came from; only read for the control arm's average. */
  applicationId?: string;
  provider?: string;
  model?: string;
  /** When the answer was given; only read for the control arm's average since an A/B test's start. */
  createdAt?: Date;
}

/** Ratings in memory, for unit tests: the test puts the messages it needs into `messages`. */
export class InMemoryMessageRatingRepository implements MessageRatingRepository {
  readonly messages = new Map<string, RateableMessage>();

  async rate(conversationId: string, messageId: string, rating: number) {
    const m = this.messages.get(messageId);
    if (!m || m.conversationId !== conversationId) return 'missing' as const;
    if (m.role !== 'assistant' || m.status === 'failed') return 'not-rateable' as const;
    m.rating = rating;
    return 'rated' as const;
  }

  async averageByVersion(versionIds: string[]) {
    const averages = new Map<string, number>();
    for (const id of versionIds) {
      const ratings = [...this.messages.values()].filter((m) => m.configVersionId === id && m.role === 'assistant' && m.rating !== null).map((m) => m.rating!);
      if (ratings.length) averages.set(id, ratings.reduce((a, b) => a + b, 0) / ratings.length);
    }
    return averages;
  }

  async averageOfControl(config: { applicationId: string; provider: string; modelId: string }, since: Date | null = null) {
    const ratings = [...this.messages.values()]
      .filter((m) => m.configVersionId === null && m.applicationId === config.applicationId && m.provider === config.provider && m.model === config.modelId)
      .filter((m) => !since || (m.createdAt !== undefined && m.createdAt >= since))
      .filter((m) => m.role === 'assistant' && m.rating !== null)
      .map((m) => m.rating!);
    return ratings.length ? ratings.reduce((a, b) => a + b, 0) / ratings.length : null;
  }
}
