/** Ratings of assistant answers (1-5), kept on the messages themselves. */
export interface MessageRatingRepository {
  /**
   * Sets (or replaces) the rating of a message of the conversation. `missing` when there is no such
   * message there, `not-rateable` when it is not a successful or partial assistant answer.
   */
  rate(conversationId: string, messageId: string, rating: number): Promise<'rated' | 'missing' | 'not-rateable'>;
  /** The average rating of the rated answers of each version (absent: none rated). */
  averageByVersion(versionIds: string[]): Promise<Map<string, number>>;
  /**
   * The average rating of the answers a config gave itself (the A/B control arm): answers of its
   * application with no version, from the config's provider and model, given from `since` on when set (the
   * start of the config's A/B test). Null when none is rated.
   */
  averageOfControl(config: { applicationId: string; provider: string; modelId: string }, since?: Date | null): Promise<number | null>;
}
