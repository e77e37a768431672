import type { ProviderId } from '../../ai/domain/provider-id';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import { toPercent } from './traffic';

/**
 * Running figures of a version, updated atomically after every answer. Latency and tokens are
 * averaged over successful answers only: a failed request has neither a full answer nor usage.
 */
export interface VersionCounters {
  requestCount: number;
  errorCount: number;
  avgLatencyMs: number;
  avgTokensUsed: number;
}

/** An A/B variant of a model config (SPEC 2.4). */
export interface ConfigVersion {
  id: string;
  configId: string;
  applicationId: string;
  version: string;
  label: string;
  provider: ProviderId;
  modelId: string;
  settings: ModelSettings;
  /** Hundredths of a percent (see traffic.ts). */
  trafficShare: number;
  isActive: boolean;
  counters: VersionCounters;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The metrics object of SPEC 2.4. A figure without data is null, never a number that reads as a
 * measurement: the error rate before the first request, latency, tokens and rating before the first
 * successful answer (and the rating before the first rated one).
 */
export interface VersionMetrics {
  requestCount: number;
  avgLatencyMs: number | null;
  avgTokensUsed: number | null;
  errorRate: number | null;
  userSatisfactionScore: number | null;
}

export interface ConfigVersionView {
  _id: string;
  configId: string;
  applicationId: string;
  version: string;
  label: string;
  provider: ProviderId;
  modelId: string;
  settings: ModelSettings;
  trafficPercent: number;
  isActive: boolean;
  metrics: VersionMetrics;
  createdAt: string;
  updatedAt: string;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Successful answers an arm counted: what its latency, tokens (and the control's rating) are averaged over. */
export const answeredCount = (c: VersionCounters): number => c.requestCount - c.errorCount;

/** An arm's metrics from its counters and its answers' average rating; null where there is no data. */
export function toMetrics(c: VersionCounters, averageRating: number | null): VersionMetrics {
  const answered = answeredCount(c) > 0;
  return {
    requestCount: c.requestCount,
    avgLatencyMs: answered ? round2(c.avgLatencyMs) : null,
    avgTokensUsed: answered ? round2(c.avgTokensUsed) : null,
    errorRate: c.requestCount > 0 ? round2((c.errorCount / c.requestCount) * 100) / 100 : null,
    userSatisfactionScore: averageRating === null ? null : round2(averageRating),
  };
}

export const toConfigVersionView = (v: ConfigVersion, averageRating: number | null): ConfigVersionView => ({
  _id: v.id,
  configId: v.configId,
  applicationId: v.applicationId,
  version: v.version,
  label: v.label,
  provider: v.provider,
  modelId: v.modelId,
  settings: v.settings,
  trafficPercent: toPercent(v.trafficShare),
  isActive: v.isActive,
  metrics: toMetrics(v.counters, averageRating),
  createdAt: v.createdAt.toISOString(),
  updatedAt: v.updatedAt.toISOString(),
});

/** What one answer adds to a version's metrics. */
export type AnswerOutcome = { ok: true; latencyMs: number; totalTokens: number } | { ok: false };
