import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type AuditRecord = components['schemas']['AuditRecord'];
export interface AuditFilters {
  action?: string;
  resource?: string;
  application?: string;
  user?: string;
  from?: string;
  to?: string;
}

export const PAGE_SIZE = 20;

/** One page of audit records matching the filters, with the total from `X-Total-Count`. */
export function useAudit(filters: AuditFilters, page: number) {
  return useQuery({
    queryKey: ['audit', filters, page],
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/audit', { params: { query: { ...filters, page, limit: PAGE_SIZE } } });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: data ?? [], total: Number(response.headers.get('X-Total-Count') ?? data?.length ?? 0) };
    },
    placeholderData: (previous) => previous,
  });
}
