import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';
import type { ApplicationInput } from './form';

export type Application = components['schemas']['Application'];

export const PAGE_SIZE = 20;
const key = ['applications'] as const;

/** One page of the caller's applications, with the total from `X-Total-Count`. */
export function useApplications(page: number) {
  return useQuery({
    queryKey: [...key, 'list', page],
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/applications', { params: { query: { page, limit: PAGE_SIZE } } });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: data ?? [], total: Number(response.headers.get('X-Total-Count') ?? data?.length ?? 0) };
    },
    placeholderData: (previous) => previous,
  });
}

export function useSaveApplication(id?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ApplicationInput) => {
      const call = id ? api.PUT('/api/applications/{id}', { params: { path: { id } }, body }) : api.POST('/api/applications', { body });
      const { data, error, response } = await call;
      if (!response.ok) throw toApiError(response.status, error);
      return data as Application;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteApplication() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error, response } = await api.DELETE('/api/applications/{id}', { params: { path: { id } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
