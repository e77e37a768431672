import type { ModelPrice } from '../../ai/domain/model-catalog';
import type { ConversationSource } from '../../conversations/domain/conversation';
import type { KeyKind, ToolCallCount } from './analytics';

/** The figures of one slice (a day, a provider, a source, or everything). */
export interface UsageFigures {
  conversations: number;
  messages: number;
  messagesSent: number;
  messagesReceived: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  estimatedCostUsd: number;
  /** Tokens of models the price table has no price for (not in the cost). */
  unpricedTokens: number;
  errors: number;
  /** Failed turns out of the turns that reached a provider, 0 to 1. */
  errorRate: number;
  apiCalls: number;
  widgetLoads: number;
}

/** The span an analytics read covers: whole UTC days `from`…`to`, of one application or (null) all the caller sees. */
export interface AnalyticsPeriod {
  applicationId: string | null;
  from: string;
  to: string;
}

/** Usage figures by day, provider (conversations are counted by day and source only) and source. */
export interface AnalyticsUsage extends AnalyticsPeriod {
  totals: UsageFigures;
  byDay: Array<{ day: string } & UsageFigures>;
  byProvider: Array<{ provider: string } & Omit<UsageFigures, 'conversations'>>;
  bySource: Array<{ source: ConversationSource } & UsageFigures>;
}

/** The usage figures with the date of the list prices the costs were estimated from. */
export interface AnalyticsOverview extends AnalyticsUsage {
  pricesAsOf: string;
}

/** How many conversations of a slice, their messages and durations. */
export interface ConversationStats {
  conversations: number;
  messages: number;
  averageMessages: number;
  longestMessages: number;
  averageDurationSeconds: number;
  longestDurationSeconds: number;
}

export interface AnalyticsConversations extends AnalyticsPeriod {
  totals: ConversationStats & { ratings: { count: number; average: number | null; distribution: Record<string, number> } };
  byDay: Array<{ day: string } & ConversationStats>;
  bySource: Array<{ source: ConversationSource } & ConversationStats>;
  byProvider: Array<{ provider: string; answers: number; averageAnswerTokens: number }>;
  /** The tools the model called: calls, failures and average time per tool. */
  byTool: ToolCallCount[];
}

/** Estimated cost of a slice, split by whose key paid the provider. */
export interface CostSplit {
  estimatedCostUsd: number;
  ownKeyCostUsd: number;
  platformKeyCostUsd: number;
}

export interface AnalyticsCosts extends AnalyticsPeriod {
  pricesAsOf: string;
  totals: CostSplit & { unpricedTokens: number };
  byModel: Array<{ provider: string; model: string; keyKind: KeyKind; promptTokens: number; completionTokens: number; price: ModelPrice | null; estimatedCostUsd: number }>;
  byDay: Array<{ day: string } & CostSplit>;
  byProvider: Array<{ provider: string } & CostSplit>;
  bySource: Array<{ source: ConversationSource } & CostSplit>;
}
