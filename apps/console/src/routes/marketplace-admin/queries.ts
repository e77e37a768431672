import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { toApiError } from '../../lib/errors';

export type Kind = 'plugins' | 'themes';

/** A submission or a listed item as the marketplace answers it (loosely typed in the OpenAPI document). */
export interface AdminItem {
  id: string;
  name: string;
  displayName: string;
  description: string;
  version: string;
  author: string;
  category: string;
  isPaid?: boolean;
  price?: number | null;
  featured?: boolean;
  createdAt?: string;
}

export interface Overview {
  configured: boolean;
  pending: { plugins: AdminItem[]; themes: AdminItem[] };
  counts: { pendingPlugins: number; pendingThemes: number };
}

const key = ['marketplace-admin'] as const;

/** `GET /api/admin/marketplace`: what awaits review, with the counts. */
export function useOverview() {
  return useQuery({ queryKey: [...key, 'overview'], queryFn: async () => (await data(api.GET('/api/admin/marketplace'))) as unknown as Overview });
}

/** Published items of a kind (the first 100, most installed first), to feature or stop featuring. */
export function usePublished(kind: Kind) {
  return useQuery({
    queryKey: [...key, 'published', kind],
    queryFn: async () => {
      const query = { page: 1, limit: 100 };
      const page = kind === 'plugins' ? await data(api.GET('/api/marketplace/browse', { params: { query } })) : await data(api.GET('/api/marketplace/themes', { params: { query } }));
      return (page.data ?? []) as unknown as AdminItem[];
    },
  });
}

function useRefresh() {
  const client = useQueryClient();
  // The marketplace area's lists change too (browse, featured, submissions).
  return () => Promise.all([client.invalidateQueries({ queryKey: key }), client.invalidateQueries({ queryKey: ['marketplace'] })]);
}

export function useApprove() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ kind, id }: { kind: Kind; id: string }) => {
      const params = { path: { id } };
      const { error, response } = kind === 'plugins' ? await api.POST('/api/marketplace/admin/plugins/{id}/approve', { params }) : await api.POST('/api/marketplace/admin/themes/{id}/approve', { params });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: refresh,
  });
}

export function useReject() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ kind, id, reason }: { kind: Kind; id: string; reason: string }) => {
      const params = { path: { id } };
      const body = { reason };
      const { error, response } =
        kind === 'plugins' ? await api.POST('/api/marketplace/admin/plugins/{id}/reject', { params, body }) : await api.POST('/api/marketplace/admin/themes/{id}/reject', { params, body });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: refresh,
  });
}

export function useSetFeatured() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ kind, id, featured }: { kind: Kind; id: string; featured: boolean }) => {
      const params = { path: { id } };
      const body = { featured };
      const { error, response } =
        kind === 'plugins' ? await api.PUT('/api/marketplace/admin/plugins/{id}/featured', { params, body }) : await api.PUT('/api/marketplace/admin/themes/{id}/featured', { params, body });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: refresh,
  });
}
