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

/** The metrics object of SPEC 2.4. `userSatisfactionScore` is null until an answer is rated. */
export interface VersionMetrics {
  requestCount: number;
  avgLatencyMs: number;
  avgTokensUsed: number;
  errorRate: number;
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

export function toMetrics(c: VersionCounters, averageRating: number | null): VersionMetrics {
  return {
    requestCount: c.requestCount,
    avgLatencyMs: round2(c.avgLatencyMs),
    avgTokensUsed: round2(c.avgTokensUsed),
    errorRate: c.requestCount === 0 ? 0 : round2((c.errorCount / c.requestCount) * 100) / 100,
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
