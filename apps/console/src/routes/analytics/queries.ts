import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type Overview = components['schemas']['AnalyticsOverview'];
export type Costs = components['schemas']['AnalyticsCosts'];

/** The period as the API takes it: UTC days, `to` inclusive. */
export function period(days: number, now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** The figures of one application, or of all of them when `applicationId` is absent. */
export function useOverview(days: number, applicationId?: string) {
  return useQuery({
    queryKey: ['analytics', 'overview', days, applicationId ?? 'all'],
    queryFn: () => data(api.GET('/api/analytics/overview', { params: { query: { ...period(days), ...(applicationId ? { applicationId } : {}) } } })),
  });
}

export function useCosts(days: number, applicationId?: string) {
  return useQuery({
    queryKey: ['analytics', 'costs', days, applicationId ?? 'all'],
    queryFn: () => data(api.GET('/api/analytics/costs', { params: { query: { ...period(days), ...(applicationId ? { applicationId } : {}) } } })),
  });
}
