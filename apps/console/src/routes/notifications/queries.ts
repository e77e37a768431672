import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type Notification = components['schemas']['Notification'];
export type Filter = 'all' | 'unread';

export const PAGE_SIZE = 20;
/** Also the prefix of the shell bell's unread count, so marking read updates the bell. */
const key = ['notifications'] as const;

/** One page of the caller's notifications, newest first, with the total from `X-Total-Count`. */
export function useNotifications(page: number, filter: Filter) {
  return useQuery({
    queryKey: [...key, 'list', filter, page],
    queryFn: async () => {
      const query = filter === 'unread' ? { page, limit: PAGE_SIZE, unread: 'true' as const } : { page, limit: PAGE_SIZE };
      const { data: body, error, response } = await api.GET('/api/notifications', { params: { query } });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: body ?? [], total: Number(response.headers.get('X-Total-Count') ?? body?.length ?? 0) };
    },
    placeholderData: (previous) => previous,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.PUT('/api/notifications/{id}/read', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.PUT('/api/notifications/read-all')),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
