import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type ModelConfig = components['schemas']['ModelConfig'];
export type Version = components['schemas']['ModelConfigVersion'];
export type ProviderId = NonNullable<ModelConfig['provider']>;
export type Settings = components['schemas']['ModelSettings'];
export interface ConfigInput {
  name: string;
  provider: ProviderId;
  modelId: string;
  settings: Settings;
}

const key = ['model-configs'] as const;

export function useProviderCatalogue() {
  return useQuery({ queryKey: ['providers'], queryFn: () => data(api.GET('/api/providers')), staleTime: 5 * 60_000 });
}

export function useConfigs(applicationId: string | undefined) {
  return useQuery({
    queryKey: [...key, 'list', applicationId],
    enabled: !!applicationId,
    queryFn: () => data(api.GET('/api/model-configs', { params: { query: { applicationId: applicationId!, page: 1, limit: 100 } } })),
  });
}

export function useConfig(id: string) {
  return useQuery({ queryKey: [...key, 'one', id], queryFn: () => data(api.GET('/api/model-configs/{id}', { params: { path: { id } } })) });
}

export function useSaveConfig(applicationId: string | undefined, id?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfigInput) =>
      id
        ? data(api.PUT('/api/model-configs/{id}', { params: { path: { id } }, body }))
        : data(api.POST('/api/model-configs', { body: { ...body, applicationId: applicationId! } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useMakeDefault() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.PATCH('/api/model-configs/{id}/default', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/model-configs/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useComparison(configId: string) {
  return useQuery({ queryKey: [...key, 'metrics', configId], queryFn: () => data(api.GET('/api/model-configs/{configId}/metrics', { params: { path: { configId } } })) });
}

export function useAddVersion(configId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { label: string; modelId?: string; trafficPercent: number; settings?: Settings }) =>
      data(api.POST('/api/model-configs/{configId}/versions', { params: { path: { configId } }, body: { ...body, isActive: true } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useUpdateVersion(configId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ versionId, ...body }: { versionId: string; trafficPercent?: number; isActive?: boolean }) =>
      data(api.PUT('/api/model-configs/{configId}/versions/{versionId}', { params: { path: { configId, versionId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteVersion(configId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => data(api.DELETE('/api/model-configs/{configId}/versions/{versionId}', { params: { path: { configId, versionId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
