import type { AnalyticsScope, ConversationCount, ConversationSlice, RatingCount, RollupRow, ToolCallCount } from '../domain/analytics';

/** Where the analytics rollup lives and the stored conversations are counted. */
export interface AnalyticsStore {
  /** Adds these slices' counts to the rollup in one statement; slices of applications gone since are dropped. */
  add(rows: RollupRow[]): Promise<void>;
  /** The rollup of the scope, one row per day, source, provider, model and key kind (application merged). */
  rollup(scope: AnalyticsScope): Promise<Array<Omit<RollupRow, 'applicationId'>>>;
  /** Conversations opened in the scope, by day and source. */
  conversationCounts(scope: AnalyticsScope): Promise<ConversationCount[]>;
  /** Length and duration of the conversations opened in the scope, by day and source. */
  conversationSlices(scope: AnalyticsScope): Promise<ConversationSlice[]>;
  /** Ratings given to answers of the conversations opened in the scope. */
  ratings(scope: AnalyticsScope): Promise<RatingCount[]>;
  /** Tool calls made in the conversations opened in the scope, by tool: calls, failures, average time. */
  toolCalls(scope: AnalyticsScope): Promise<ToolCallCount[]>;
  /** The ids of the applications a user sees: personal and their teams' (`teamId`: undefined both, null personal, an id that team's). */
  applicationsOf(userId: string, teamId?: string | null): Promise<string[]>;
}
