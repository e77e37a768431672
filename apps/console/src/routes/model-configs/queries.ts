import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

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

export type AbTest = components['schemas']['AbTest'];
export type AbTestArm = components['schemas']['AbTestArm'];
export type AbTestInput = {
  goal: NonNullable<AbTest['goal']>;
  minimumEffect: number;
  significance: number;
  autoPromote: boolean;
  guardrails: NonNullable<AbTest['guardrails']>;
  evaluatorId?: string;
  sampleRate?: number;
  samplesPerHour?: number;
};
export type KeptEvaluator = components['schemas']['SavedEvaluator'];

/** Keeps an evaluator that scores whether an answer holds any of some words. */
export function useKeepEvaluator(applicationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; values: string[] }) =>
      data(api.POST('/api/applications/{appId}/evaluators', { params: { path: { appId: applicationId } }, body: { type: 'contains', mode: 'any', ...body } })) as Promise<KeptEvaluator>,
    onSuccess: () => client.invalidateQueries({ queryKey: ['evaluators', applicationId] }),
  });
}

/** The evaluators the application keeps for A/B tests scored on sampled live answers. */
export function useKeptEvaluators(applicationId: string | undefined) {
  return useQuery({
    queryKey: ['evaluators', applicationId],
    enabled: !!applicationId,
    queryFn: () => data(api.GET('/api/applications/{appId}/evaluators', { params: { path: { appId: applicationId! } } })) as Promise<KeptEvaluator[]>,
  });
}

/** The config's A/B test with its decision; `null` when it has none yet (the API's 404). Refreshed every 15 s while running. */
export function useAbTest(configId: string) {
  return useQuery({
    queryKey: [...key, 'experiment', configId],
    queryFn: async (): Promise<AbTest | null> => {
      const { data: body, error, response } = await api.GET('/api/model-configs/{configId}/experiment', { params: { path: { configId } } });
      if (response.status === 404) return null;
      if (!response.ok) throw toApiError(response.status, error);
      return body as AbTest;
    },
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 15_000 : false),
    refetchIntervalInBackground: false,
  });
}

export function useSaveAbTest(configId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AbTestInput) => data(api.PUT('/api/model-configs/{configId}/experiment', { params: { path: { configId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function usePromoteAbTest(configId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/api/model-configs/{configId}/experiment/promote', { params: { path: { configId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
