import type { PlatformMetrics } from '../../../adapters/metrics/prom-client.metrics';
import type { AnalyticsStore } from '../../../core/analytics/ports/analytics-store.port';
import type { AnalyticsRecorder } from '../../../core/analytics/use-cases/analytics-recorder';
import type { ProviderReachability } from '../../../core/health/domain/provider-reachability';
import { token } from '../../shared/tokens';

export const ANALYTICS_TOKENS = {
  Store: token<AnalyticsStore>('AnalyticsStore'),
  Recorder: token<AnalyticsRecorder>('AnalyticsRecorder'),
  Metrics: token<PlatformMetrics>('PlatformMetrics'),
  /** What the last chat turns of this process say about each provider (system health). */
  ProviderReachability: token<ProviderReachability>('ProviderReachability'),
} as const;
