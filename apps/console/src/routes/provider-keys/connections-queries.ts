import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { MODEL_CATALOGUE_KEY } from '../../lib/model-catalogue';

export type Connection = components['schemas']['Connection'];
export type ConnectionTest = components['schemas']['ConnectionTest'];

export const connectionsKey = ['connections'] as const;

/** The caller's connections (docs/connections.md); their models are offered in the model pickers too. */
export function useConnections(enabled = true) {
  return useQuery({ queryKey: connectionsKey, queryFn: async () => (await data(api.GET('/api/connections'))).data, enabled });
}

export type ConnectionKind = Connection['kind'];

export interface NewConnection {
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
