import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';
import { useScope } from '../../lib/scope';
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

/** The team chosen in the switcher (its name and the caller's role there), or null outside a team. */
export function useScopeTeam() {
  const current = useScope();
  const teamId = current === 'all' || current === 'personal' ? null : current;
  const team = useQuery({
    queryKey: ['scope-team', teamId],
    enabled: !!teamId,
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/teams/{id}', { params: { path: { id: teamId! } } });
      if (!response.ok) throw toApiError(response.status, error);
      return data!;
    },
  });
  return teamId ? team : null;
}

/**
 * Saves an application. A new one made while a team is chosen in the switcher is created in that team in the
 * same request (the API checks the Admin role there and the team Owner's plan, and stores nothing otherwise).
 */
export function useSaveApplication(id?: string, teamId?: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ApplicationInput) => {
      const call = id
        ? api.PUT('/api/applications/{id}', { params: { path: { id } }, body })
        : api.POST('/api/applications', { body: teamId ? { ...body, teamId } : body });
      const { data, error, response } = await call;
      if (!response.ok) throw toApiError(response.status, error);
      return data as Application;
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
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

/** How many items a list endpoint holds in all (its `X-Total-Count`, else the page's length). */
async function total(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<number> {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(response.status, error);
  return Number(response.headers.get('X-Total-Count') ?? (Array.isArray(data) ? data.length : 0));
}

/** The figures of an application's Overview, each from the endpoint that owns it (each may fail on its own). */
export function useOverviewFacts(appId: string) {
  const model = useQuery({
    queryKey: ['model-configs', 'list', appId],
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/model-configs', { params: { query: { applicationId: appId, page: 1, limit: 100 } } });
      if (!response.ok) throw toApiError(response.status, error);
      return data ?? [];
    },
  });
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/api-keys', { params: { query: { limit: 100 } } });
      if (!response.ok) throw toApiError(response.status, error);
      return data ?? [];
    },
  });
  const conversations = useQuery({
    queryKey: ['applications', 'overview', appId, 'conversations'],
    queryFn: () => total(api.GET('/api/conversations', { params: { query: { applicationId: appId, limit: 1 } } })),
  });
  const documents = useQuery({
    queryKey: ['applications', 'overview', appId, 'documents'],
    queryFn: () => total(api.GET('/api/knowledge', { params: { query: { applicationId: appId, page: 1, limit: 1 } } })),
  });
  const tools = useQuery({
    queryKey: ['applications', 'overview', appId, 'tools'],
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/applications/{appId}/tools/available', { params: { path: { appId } } });
      if (!response.ok) throw toApiError(response.status, error);
      return data ?? [];
    },
  });
  return { model, keys, conversations, documents, tools };
}

/** Moves an application into a team (`POST /api/applications/:id/transfer`). */
export function useTransferApplication(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (teamId: string) => {
      const { data, error, response } = await api.POST('/api/applications/{id}/transfer', { params: { path: { id } }, body: { teamId } });
      if (!response.ok) throw toApiError(response.status, error);
      return data as Application;
    },
    // The header names the team now holding it: the list of teams is read again too (it may predate that team).
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: key }), client.invalidateQueries({ queryKey: ['teams'] })]),
  });
}
