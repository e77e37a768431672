import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { useSession } from './use-session';

/**
 * Whether this install takes payments (the API's `payments` on the caller's usage): only then does the console
 * show prices, Subscribe buttons, invoices and the Billing area. Undefined while unknown (signed out, loading),
 * which shows none of them.
 */
export function usePayments(): boolean | undefined {
  const state = useSession();
  const usage = useQuery({
    queryKey: ['billing', 'usage'],
    queryFn: () => data(api.GET('/api/billing/usage')),
    enabled: state.status === 'signed-in',
    staleTime: 60_000,
  });
  return usage.data?.payments;
}
