import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type StudioDraft = components['schemas']['StudioDraft'];
export type StudioConfig = components['schemas']['StudioConfig'];
export type StudioVersion = components['schemas']['StudioVersion'];
export type StudioDiff = components['schemas']['StudioDiff'];

const key = (appId: string) => ['studio', appId] as const;

export function useDraft(appId: string) {
  return useQuery({ queryKey: [...key(appId), 'draft'], queryFn: () => data(api.GET('/api/applications/{appId}/studio/draft', { params: { path: { appId } } })) });
}

export function useVersions(appId: string) {
  return useQuery({
    queryKey: [...key(appId), 'versions'],
    queryFn: () => data(api.GET('/api/applications/{appId}/studio/versions', { params: { path: { appId }, query: { limit: 50 } } })),
  });
}

export function useDiff(appId: string, from: string | null, to: string) {
  return useQuery({
    queryKey: [...key(appId), 'diff', from, to],
    queryFn: () => data(api.GET('/api/applications/{appId}/studio/diff', { params: { path: { appId }, query: { from: from!, to } } })),
    enabled: from !== null,
  });
}

export function useApplication(appId: string) {
  return useQuery({ queryKey: ['applications', 'one', appId], queryFn: () => data(api.GET('/api/applications/{id}', { params: { path: { id: appId } } })) });
}

export function useKnowledgeCount(appId: string) {
  return useQuery({
    queryKey: ['knowledge', 'list', appId, 'studio'],
    queryFn: async () => (await data(api.GET('/api/knowledge', { params: { query: { applicationId: appId, limit: 100 } } }))).length,
  });
}

export function useAgentSettings(appId: string) {
  return useQuery({ queryKey: ['tools', 'agent', appId], queryFn: () => data(api.GET('/api/applications/{appId}/agent', { params: { path: { appId } } })) });
}

/** Mutations refresh the draft, the versions and any diff of the application. */
function useStudioMutation<A, R>(appId: string, run: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: key(appId) }) });
}

export const useSaveDraft = (appId: string) =>
  useStudioMutation(appId, (body: Partial<StudioConfig>) => data(api.PUT('/api/applications/{appId}/studio/draft', { params: { path: { appId } }, body })));

export const usePublish = (appId: string) =>
  useStudioMutation(appId, (note: string) => data(api.POST('/api/applications/{appId}/studio/publish', { params: { path: { appId } }, body: note ? { note } : {} })));

export const useRestore = (appId: string) =>
  useStudioMutation(appId, (n: number) => data(api.POST('/api/applications/{appId}/studio/versions/{number}/restore', { params: { path: { appId, number: String(n) } } })));

export const useStartAb = (appId: string) =>
  useStudioMutation(appId, ({ n, trafficPercent }: { n: number; trafficPercent: number }) =>
    data(api.POST('/api/applications/{appId}/studio/versions/{number}/ab-test', { params: { path: { appId, number: String(n) } }, body: { trafficPercent } })),
  );
