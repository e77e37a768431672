import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type Plugin = components['schemas']['Plugin'];
export type Manifest = components['schemas']['PluginManifest'];
export type SettingSpec = NonNullable<Manifest['settings']>[string];
export type Installation = components['schemas']['PluginInstallation'];
export type InstallationDetail = Installation & { runs?: { id?: string; kind?: string; name?: string; ok?: boolean; error?: string | null; durationMs?: number; at?: string }[] };
export type AdminPage = { path?: string; title?: string; icon?: string; component?: string; group?: string; pluginId?: string; installationId?: string };
export type Move = 'activate' | 'deactivate';

/** How often an installation is re-read while active (its run log and the circuit breaker change on their own). */
export const POLL_MS = 4000;
const key = ['plugins'] as const;

/** The caller's own plugins and every published one. */
export function usePlugins() {
  return useQuery({ queryKey: [...key, 'list'], queryFn: () => data(api.GET('/api/plugins')) });
}

export function usePlugin(id: string | undefined) {
  return useQuery({ queryKey: [...key, 'one', id], enabled: !!id, queryFn: () => data(api.GET('/api/plugins/{id}', { params: { path: { id: id! } } })) });
}

export type CreateInput = { json: { manifest: Manifest; source: string } } | { zip: File };

export function useCreatePlugin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateInput): Promise<Plugin> => {
      if ('json' in input) return data(api.POST('/api/plugins', { body: input.json as never }));
      const { data: body, error, response } = await api.POST('/api/plugins', {
        body: {} as never,
        bodySerializer: () => {
          const form = new FormData();
          form.append('package', input.zip, input.zip.name);
          return form;
        },
      });
      if (!response.ok) throw toApiError(response.status, error);
      return body as Plugin;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function usePublish(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.PUT('/api/plugins/{id}/publish', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
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

const installKey = (appId: string) => [...key, 'installations', appId] as const;

export function useInstallations(appId: string) {
  return useQuery({
    queryKey: installKey(appId),
    queryFn: () => data(api.GET('/api/applications/{appId}/plugins', { params: { path: { appId } } })) as Promise<Installation[]>,
  });
}

/** One installation with its run log; polled while it runs (the breaker may trip it meanwhile). */
export function useInstallation(appId: string, id: string | null) {
  return useQuery({
    queryKey: [...installKey(appId), 'one', id],
    enabled: !!id,
    queryFn: () => data(api.GET('/api/applications/{appId}/plugins/{id}', { params: { path: { appId, id: id! } } })) as Promise<InstallationDetail>,
    refetchInterval: (query) => (query.state.data?.state === 'activated' ? POLL_MS : false),
  });
}

export function useInstall(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { pluginId: string; settings: Record<string, unknown> }) => data(api.POST('/api/applications/{appId}/plugins', { params: { path: { appId } }, body: body as never })) as Promise<Installation>,
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'installations', appId] }),
  });
}

export function useMove(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to }: { id: string; to: Move }) =>
      to === 'activate'
        ? data(api.PUT('/api/applications/{appId}/plugins/{id}/activate', { params: { path: { appId, id } } }))
        : data(api.PUT('/api/applications/{appId}/plugins/{id}/deactivate', { params: { path: { appId, id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: [...key, 'installations', appId] }),
  });
}

export function useUninstall(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error, response } = await api.DELETE('/api/applications/{appId}/plugins/{id}', { params: { path: { appId, id } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'installations', appId] }),
  });
}

export function useSaveSettings(appId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: Record<string, unknown>) => data(api.PUT('/api/applications/{appId}/plugins/{id}/settings', { params: { path: { appId, id } }, body: { settings } as never })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'installations', appId] }),
  });
}

export function useAdminPages(appId: string) {
  return useQuery({
    queryKey: [...installKey(appId), 'admin-pages'],
    queryFn: () => data(api.GET('/api/applications/{appId}/plugins/admin-pages', { params: { path: { appId } } })) as Promise<AdminPage[]>,
  });
}

/**
 * An admin page's document, read from the plugin's own endpoint with the console's bearer token (an iframe
 * cannot send it, and the API refuses to be framed), to be shown in a sandboxed frame.
 */
export function useAdminPageDocument(appId: string, page: AdminPage | null) {
  return useQuery({
    queryKey: [...installKey(appId), 'admin-page', page?.pluginId, page?.path],
    enabled: !!page?.pluginId && !!page.path,
    queryFn: async () => {
      const rest = page!.path!.replace(/^\/+/, '');
      const { data: body, error, response } = await api.GET('/api/plugins/{pluginId}/endpoints/{*rest}', {
        params: { path: { pluginId: page!.pluginId!, rest }, header: { 'X-Application-Id': appId } },
        // The catch-all segment keeps its slashes (openapi-fetch would not fill "{*rest}").
        pathSerializer: (path: string) => path.replace('{pluginId}', encodeURIComponent(page!.pluginId!)).replace('{*rest}', rest.split('/').map(encodeURIComponent).join('/')),
        parseAs: 'text',
      } as never);
      if (!response.ok) throw toApiError(response.status, typeof error === 'string' ? safeJson(error) : error);
      return String(body ?? '');
    },
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
