import type { ConversationSource } from '../../conversations/domain/conversation';

/** The analytics event types. */
export const ANALYTICS_EVENT_TYPES = ['message_sent', 'message_received', 'conversation_started', 'widget_loaded', 'api_call', 'error'] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

/** Whose key a turn ran on: the owner's own key, the platform's, or none (the turn never reached a key). */
export type KeyKind = 'own' | 'platform' | 'none';

/** The counters of one slice of the rollup. */
export interface RollupCounts {
  messagesSent: number;
  messagesReceived: number;
  promptTokens: number;
  completionTokens: number;
  errors: number;
  apiCalls: number;
  widgetLoads: number;
}

/** What a slice is keyed by: an application's UTC day, source, provider, model and key kind. */
export interface RollupKey {
  applicationId: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  source: ConversationSource;
  provider: string;
  model: string;
  keyKind: KeyKind;
}

export type RollupRow = RollupKey & RollupCounts;

export const emptyCounts = (): RollupCounts => ({ messagesSent: 0, messagesReceived: 0, promptTokens: 0, completionTokens: 0, errors: 0, apiCalls: 0, widgetLoads: 0 });

export function addCounts(into: RollupCounts, add: Partial<RollupCounts>): void {
  for (const k of Object.keys(add) as Array<keyof RollupCounts>) into[k] += add[k] ?? 0;
}

/** The UTC day of a moment, as `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** Which applications and which time a read covers: [from, to). */
export interface AnalyticsScope {
  applicationIds: string[];
  from: Date;
  to: Date;
}

/** Conversations opened per UTC day and source. */
export interface ConversationCount {
  day: string;
  source: ConversationSource;
  conversations: number;
}

/** Conversation statistics of one UTC day and source (the conversations opened then). */
export interface ConversationSlice {
  day: string;
  source: ConversationSource;
  conversations: number;
  messages: number;
  /** Seconds from the conversation's creation to its last activity, summed. */
  durationSeconds: number;
  longestMessages: number;
  longestSeconds: number;
}

/** Tool calls made by the chat turns of a scope's conversations, by tool (docs/tools.md). */
export interface ToolCallCount {
  name: string;
  calls: number;
  failures: number;
  /** Average time of a call (ms), over the calls whose time was recorded. */
  averageMs: number;
}

/** Ratings (1 to 5) of the answers in the conversations of a scope, by value. */
export interface RatingCount {
  rating: number;
  count: number;
}
