import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type Plan = components['schemas']['Plan'];
export type Usage = components['schemas']['BillingUsage'];
export type Invoice = components['schemas']['Invoice'];
export type PaidPlan = 'starter' | 'pro' | 'enterprise';

const key = ['billing'] as const;

export function usePlans() {
  return useQuery({ queryKey: [...key, 'plans'], queryFn: () => data(api.GET('/api/billing/plans')) });
}

/** The plan, period and usage; after a checkout it is polled until Stripe's webhook has changed the plan. */
export function useUsage(pollMs: number | false) {
  return useQuery({ queryKey: [...key, 'usage'], queryFn: () => data(api.GET('/api/billing/usage')), refetchInterval: pollMs, refetchIntervalInBackground: false });
}

export function useSubscription(pollMs: number | false) {
  return useQuery({ queryKey: [...key, 'subscription'], queryFn: () => data(api.GET('/api/billing/subscription')), refetchInterval: pollMs, refetchIntervalInBackground: false });
}

export function useInvoices(startingAfter: string | undefined) {
  return useQuery({
    queryKey: [...key, 'invoices', startingAfter ?? ''],
    queryFn: () => data(api.GET('/api/billing/invoices', { params: { query: { limit: 10, ...(startingAfter ? { startingAfter } : {}) } } })),
  });
}

/** Starts Stripe Checkout for a plan, or opens the customer portal: the page goes to Stripe's hosted page. */
export function useSubscribe() {
  return useMutation({
    mutationFn: (plan: PaidPlan) => data(api.POST('/api/billing/subscribe', { body: { plan } })),
    onSuccess: (session) => window.location.assign(session.url!),
  });
}

export function usePortal() {
  return useMutation({
    mutationFn: () => data(api.POST('/api/billing/portal')),
    onSuccess: (session) => window.location.assign(session.url!),
  });
}
