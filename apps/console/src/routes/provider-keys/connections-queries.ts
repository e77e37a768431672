import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { MODEL_CATALOGUE_KEY } from '../../lib/model-catalogue';

export type Connection = components['schemas']['Connection'];
export type ConnectionTest = components['schemas']['ConnectionTest'];

export const connectionsKey = ['connections'] as const;

/**
 * The caller's connections, or (`teamId`) a team's (docs/connections.md); their models are offered in the
 * model pickers too.
 */
export function useConnections(teamId: string | null) {
  return useQuery({
    queryKey: [...connectionsKey, teamId],
    queryFn: async () => (await data(api.GET('/api/connections', { params: { query: teamId ? { teamId } : {} } }))).data,
  });
}

export type ConnectionKind = Connection['kind'];

export interface NewConnection {
  /** The team that will hold it; absent for a personal one. */
  teamId?: string;
  name: string;
  kind: ConnectionKind;
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

export function useCreateConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewConnection) => data(api.POST('/api/connections', { body })),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: connectionsKey }), client.invalidateQueries({ queryKey: MODEL_CATALOGUE_KEY })]),
  });
}

export function useTestConnection(id: string) {
  return useMutation({ mutationFn: () => data(api.POST('/api/connections/{id}/test', { params: { path: { id } } })) as Promise<ConnectionTest> });
}

export function useRediscoverModels(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/api/connections/{id}/models', { params: { path: { id } } })),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: connectionsKey }), client.invalidateQueries({ queryKey: MODEL_CATALOGUE_KEY })]),
  });
}

export function useDeleteConnection(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE('/api/connections/{id}', { params: { path: { id } } })),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: connectionsKey }), client.invalidateQueries({ queryKey: MODEL_CATALOGUE_KEY })]),
  });
}
