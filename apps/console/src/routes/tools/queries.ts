import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components, paths } from '../../api/schema';

export type Tool = components['schemas']['Tool'];
export type ToolSource = components['schemas']['ToolSource'];
export type AgentSettings = components['schemas']['AgentSettings'];
export type ToolBody = paths['/api/applications/{appId}/tools']['post']['requestBody']['content']['application/json'];
export type ToolParameters = NonNullable<ToolBody['parameters']>;

const toolsKey = (appId: string) => ['tools', appId] as const;
const agentKey = (appId: string) => ['tools', appId, 'agent'] as const;

export function useTools(appId: string) {
  return useQuery({ queryKey: toolsKey(appId), queryFn: () => data(api.GET('/api/applications/{appId}/tools', { params: { path: { appId } } })) });
}

export function useSaveTool(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ToolBody }) =>
      id
        ? data(api.PUT('/api/applications/{appId}/tools/{toolId}', { params: { path: { appId, toolId: id } }, body }))
        : data(api.POST('/api/applications/{appId}/tools', { params: { path: { appId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: toolsKey(appId) }),
  });
}

export function useDeleteTool(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/applications/{appId}/tools/{toolId}', { params: { path: { appId, toolId: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: toolsKey(appId) }),
  });
}

export function useAgentSettings(appId: string) {
  return useQuery({ queryKey: agentKey(appId), queryFn: () => data(api.GET('/api/applications/{appId}/agent', { params: { path: { appId } } })) });
}

export function useSaveAgentSettings(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AgentSettings) => data(api.PUT('/api/applications/{appId}/agent', { params: { path: { appId } }, body })),
    onSuccess: (saved) => client.setQueryData(agentKey(appId), saved),
  });
}

/** The teams the caller belongs to, with the caller's role in each (to disable what a role cannot do). */
export function useTeamRoles() {
  return useQuery({
    queryKey: ['teams', 'mine'],
    queryFn: () => data(api.GET('/api/teams', { params: { query: { page: 1, limit: 100 } } })),
    staleTime: 60_000,
  });
}
