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
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: toolsKey(appId) }), client.invalidateQueries({ queryKey: ['tools', appId, 'available'] })]),
  });
}

export function useDeleteTool(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/applications/{appId}/tools/{toolId}', { params: { path: { appId, toolId: id } } })),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: toolsKey(appId) }), client.invalidateQueries({ queryKey: ['tools', appId, 'available'] })]),
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

export type McpServer = components['schemas']['McpServer'];
export type McpServerBody = paths['/api/applications/{appId}/mcp-servers']['post']['requestBody']['content']['application/json'];
export type McpServerChange = paths['/api/applications/{appId}/mcp-servers/{serverId}']['put']['requestBody']['content']['application/json'];
export type AvailableTool = components['schemas']['AvailableTool'];

const mcpKey = (appId: string) => ['tools', appId, 'mcp-servers'] as const;
const availableKey = (appId: string) => ['tools', appId, 'available'] as const;

/** Every tool the agent settings may enable: own, plugin and MCP tools (unavailable ones with their reason). */
export function useAvailableTools(appId: string) {
  return useQuery({ queryKey: availableKey(appId), queryFn: () => data(api.GET('/api/applications/{appId}/tools/available', { params: { path: { appId } } })) });
}

export function useMcpServers(appId: string) {
  return useQuery({ queryKey: mcpKey(appId), queryFn: () => data(api.GET('/api/applications/{appId}/mcp-servers', { params: { path: { appId } } })) });
}

/** After any change to a server its cached tools change too: the list and the available tools are read again. */
function useMcpMutation<T>(appId: string, fn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: mcpKey(appId) }), client.invalidateQueries({ queryKey: availableKey(appId) })]),
  });
}

export function useAddMcpServer(appId: string) {
  return useMcpMutation(appId, (body: McpServerBody) => data(api.POST('/api/applications/{appId}/mcp-servers', { params: { path: { appId } }, body })));
}

export function useUpdateMcpServer(appId: string) {
  return useMcpMutation(appId, ({ serverId, body }: { serverId: string; body: McpServerChange }) =>
    data(api.PUT('/api/applications/{appId}/mcp-servers/{serverId}', { params: { path: { appId, serverId } }, body })),
  );
}

export function useRefreshMcpServer(appId: string) {
  return useMcpMutation(appId, (serverId: string) => data(api.POST('/api/applications/{appId}/mcp-servers/{serverId}/refresh', { params: { path: { appId, serverId } } })));
}

export function useDeleteMcpServer(appId: string) {
  return useMcpMutation(appId, (serverId: string) => data(api.DELETE('/api/applications/{appId}/mcp-servers/{serverId}', { params: { path: { appId, serverId } } })));
}
