import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type AdminUser = components['schemas']['AdminUser'];
export type SystemHealth = components['schemas']['SystemHealth'];
export type Role = 'admin' | 'developer' | 'user';
export type PlanId = 'free' | 'starter' | 'pro' | 'enterprise';
export interface UserFilters {
  search: string;
  role: Role | '';
  plan: PlanId | '';
  disabled: 'true' | 'false' | '';
}

export const PAGE_SIZE = 20;
const key = ['admin', 'users'] as const;

/** A page of accounts and the total matching the filters (`X-Total-Count`). */
export function useAdminUsers(filters: UserFilters, page: number) {
  return useQuery({
    queryKey: [...key, filters, page],
    queryFn: async () => {
      const query = {
        page,
        limit: PAGE_SIZE,
        ...(filters.search ? { search: filters.search } : {}),
        ...(filters.role ? { role: filters.role } : {}),
        ...(filters.plan ? { plan: filters.plan } : {}),
        ...(filters.disabled ? { disabled: filters.disabled } : {}),
      };
      const { data: items, error, response } = await api.GET('/api/admin/users', { params: { query } });
      if (!response.ok || !items) throw toApiError(response.status, error);
      return { items, total: Number(response.headers.get('X-Total-Count') ?? items.length) };
    },
    placeholderData: keepPreviousData,
  });
}

type Change = { id: string } & ({ role: Role } | { plan: PlanId } | { disabled: boolean });

/** One change to an account: role, plan or disabled. */
export function useChangeUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: Change) => {
      const path = { id: change.id };
      if ('role' in change) return data(api.PUT('/api/admin/users/{id}/role', { params: { path }, body: { role: change.role } }));
      if ('plan' in change) return data(api.PUT('/api/admin/users/{id}/plan', { params: { path }, body: { plan: change.plan } }));
      return data(api.PUT('/api/admin/users/{id}/disabled', { params: { path }, body: { disabled: change.disabled } }));
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** SPEC's system health: refreshed every 15 s, paused while the tab is hidden. */
export const HEALTH_REFRESH_MS = 15_000;

export function useSystemHealth() {
  return useQuery({
    queryKey: ['admin', 'health'],
    queryFn: () => data(api.GET('/api/system-health')),
    refetchInterval: HEALTH_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}
